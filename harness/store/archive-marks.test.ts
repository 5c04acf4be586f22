import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Message } from "../contract/types.ts";
import { ARCHIVE_MARKS_TABLE } from "./archive-marks.ts";
import { OlderBuildWriter } from "./older-build-writer.ts";
import { assistant, openStore, rawDb, tempDir, user } from "./test-support.ts";

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

const conversation = (n: number, label = "m"): Message[] => Array.from({ length: n }, (_, i) => (i % 2 === 0 ? user(`${label}${i}`) : assistant(`${label}${i}`)));

type StoredFlags = { id: number; active: number; compacted: number };
const storedFlags = (path: string, session = "s"): StoredFlags[] => {
  const db = rawDb(path);
  const rows = db.prepare("SELECT id, active, compacted FROM messages WHERE session_id = ? ORDER BY id").all(session) as StoredFlags[];
  db.close();
  return rows;
};
const marksIn = (path: string): unknown[] => {
  const db = rawDb(path);
  const rows = db.prepare(`SELECT session_id, through_id FROM ${ARCHIVE_MARKS_TABLE}`).all();
  db.close();
  return rows;
};
const summaryOf = (store: ReturnType<typeof openStore>, session = "s"): Message[] => [{ role: "user", content: `[summary of ${session}]` }, ...store.getMessages(session).slice(-1).map((m) => ({ ...m }))];

describe("a committed compaction archives by raising the session's mark, not by rewriting rows", () => {
  it("leaves the archived rows' stored flags alone until the store settles, and every read derives them from the mark", () => {
    const path = tmp.file();
    const store = openStore(path);
    store.appendMessages("s", conversation(20));
    const before = store.getRows("s").map((row) => row.id);
    store.compactInPlace("s", summaryOf(store), store.watermark("s"));

    // The old rows were not written: only the two new rows and the mark.
    expect(storedFlags(path).filter((row) => before.includes(row.id)).every((row) => row.active === 1 && row.compacted === 0)).toBe(true);
    expect(marksIn(path)).toEqual([{ session_id: "s", through_id: Math.max(...before) }]);

    expect(store.getMessages("s").map((m) => m.content)).toEqual(["[summary of s]", "m19"]);
    const all = store.getRows("s", { includeInactive: true });
    expect(all.filter((row) => row.active === 0).map((row) => [row.id, row.compacted])).toEqual(before.map((id) => [id, 1]));
    expect(store.exportSession("s").messages.map((m) => [m.active, m.compacted])).toEqual([...before.map(() => [false, true]), [true, false], [true, false]]);
    expect(store.watermark("s")).toBe(Math.max(...all.map((row) => row.id)));
    store.close();

    // Closing settled it: the stored flags say what the mark said, and the mark is gone.
    expect(storedFlags(path).map((row) => [row.active, row.compacted])).toEqual(all.map((row) => [row.active, row.compacted]));
    expect(marksIn(path)).toEqual([]);
  });

  it("a second pass raises the mark over the first pass's rows, and the history reads the same before and after settling", () => {
    const path = tmp.file();
    const store = openStore(path, { settleOnClose: false });
    store.appendMessages("s", conversation(10));
    store.compactInPlace("s", summaryOf(store), store.watermark("s"));
    store.appendMessages("s", conversation(6, "late"));
    const live = store.compactInPlace("s", summaryOf(store), store.watermark("s"));
    const rows = store.getRows("s", { includeInactive: true });
    expect(rows.filter((row) => row.active === 1)).toHaveLength(2);
    expect(store.settleArchive()).toBe(rows.length - 2);
    expect(store.getMessages("s")).toEqual(live);
    expect(store.getRows("s", { includeInactive: true })).toEqual(rows);
    store.close();
  });

  it("rows a rewind archived before a pass keep active = 0, compacted = 0 under the mark, as the eager update left them", () => {
    const store = openStore(tmp.file());
    store.appendMessages("s", conversation(6));
    store.rewind("s", { turns: 1 });
    const rewound = store.getRows("s", { includeInactive: true }).filter((row) => row.active === 0).map((row) => row.id);
    store.compactInPlace("s", summaryOf(store), store.watermark("s"));
    const flags = new Map(store.getRows("s", { includeInactive: true }).map((row) => [row.id, [row.active, row.compacted]]));
    expect(rewound.map((id) => flags.get(id))).toEqual(rewound.map(() => [0, 0]));
    store.settleArchive();
    const settled = new Map(store.getRows("s", { includeInactive: true }).map((row) => [row.id, [row.active, row.compacted]]));
    expect(settled).toEqual(flags);
    store.close();
  });

  it("after a pass, replace_messages, rewind, rotation and an edited copy see only the compacted history", () => {
    const store = openStore(tmp.file());
    store.appendMessages("s", conversation(8));
    store.compactInPlace("s", summaryOf(store), store.watermark("s"));
    const archived = store.getRows("s", { includeInactive: true }).filter((row) => row.active === 0).length;

    const child = store.rotate("s", "child", store.getMessages("s").slice(0, 1).map((m) => ({ ...m })), { watermark: 0 });
    expect(child.map((m) => m.content)).toEqual(["[summary of s]", "[summary of s]", "m7"]);

    const uid = store.getMessages("s")[1]!.message_uid!;
    store.appendEditedCopy("s", uid, "m7 edited");
    expect(store.getMessages("s").map((m) => m.content)).toEqual(["[summary of s]", "m7", "m7 edited"]);

    store.replaceMessages("s", [user("only this")]);
    expect(store.getMessages("s").map((m) => m.content)).toEqual(["only this"]);
    // The archived generation is still there: the reissue deleted active rows only.
    expect(store.getRows("s", { includeInactive: true }).filter((row) => row.active === 0)).toHaveLength(archived);

    store.appendMessages("s", [assistant("reply"), user("again")]);
    const outcome = store.rewind("s", { turns: 1 });
    expect(outcome.prefix.map((m) => m.content)).toEqual(["only this", "reply"]);
    store.close();
  });

  it("a row an older build inserts after the pass is active; its own reads of the stored flags are exact once the store closed", () => {
    const path = tmp.file();
    const store = openStore(path);
    store.appendMessages("s", conversation(6));
    store.compactInPlace("s", summaryOf(store), store.watermark("s"));
    const older = OlderBuildWriter.open(path);
    older.append("s", [user("from the old desktop app")]);
    older.close();
    expect(store.getMessages("s").map((m) => m.content)).toEqual(["[summary of s]", "m5", "from the old desktop app"]);
    store.close();
    const db = rawDb(path);
    const active = db.prepare("SELECT content FROM messages WHERE session_id = 's' AND active = 1 ORDER BY id").pluck().all();
    db.close();
    expect(active).toEqual(["[summary of s]", "m5", "from the old desktop app"]);
  });

  it("another connection of this build reads the mark too", () => {
    const path = tmp.file();
    const writer = openStore(path);
    writer.appendMessages("s", conversation(6));
    writer.compactInPlace("s", summaryOf(writer), writer.watermark("s"));
    const reader = openStore(path, { settleOnClose: false });
    expect(reader.getMessages("s")).toEqual(writer.getMessages("s"));
    reader.close();
    writer.close();
  });

  it("a mark left by a process that never closed is settled by later opens in bounded slices, reads correct throughout", () => {
    const path = tmp.file();
    const crashed = openStore(path, { settleOnClose: false });
    crashed.appendMessages("s", conversation(25));
    crashed.appendMessages("t", conversation(5, "t"));
    crashed.compactInPlace("s", summaryOf(crashed), crashed.watermark("s"));
    crashed.compactInPlace("t", summaryOf(crashed, "t"), crashed.watermark("t"));
    const live = crashed.getMessages("s");
    crashed.close();
    expect(marksIn(path)).toHaveLength(2);

    const reports = [];
    for (let open = 0; open < 4; open++) {
      const store = openStore(path, { settleChunk: 10, settleBudgetMs: 0, settleOnClose: false });
      expect(store.getMessages("s")).toEqual(live);
      reports.push(store.openReport.settle);
      store.close();
    }
    // One slice per open (a zero budget still runs one): 10 + 10 + 5 rows of "s", then the 5 of "t".
    expect(reports.map((r) => [r.done, r.rowsSettled])).toEqual([[false, 10], [false, 10], [false, 5], [true, 5]]);
    expect(marksIn(path)).toEqual([]);
    expect(storedFlags(path).filter((row) => row.active === 1)).toHaveLength(2);
  });

  it("a v31 store written before archive marks existed opens, gains the table and reads as before", () => {
    const path = tmp.file();
    const store = openStore(path);
    store.appendMessages("s", conversation(4));
    store.compactInPlace("s", summaryOf(store), store.watermark("s"));
    store.close();
    const db = new Database(path);
    db.exec(`DROP TABLE ${ARCHIVE_MARKS_TABLE}`);
    db.close();
    const reopened = openStore(path);
    expect(reopened.getMessages("s").map((m) => m.content)).toEqual(["[summary of s]", "m3"]);
    expect(marksIn(path)).toEqual([]);
    reopened.close();
  });

  it("an in-memory store derives the same history and skips the settling nobody can read", () => {
    const store = openStore(":memory:");
    store.appendMessages("s", conversation(6));
    const live = store.compactInPlace("s", summaryOf(store), store.watermark("s"));
    expect(live.map((m) => m.content)).toEqual(["[summary of s]", "m5"]);
    store.close();
  });
});
