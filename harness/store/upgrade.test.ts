import { readFileSync, statSync, writeFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { StoreOpenError } from "./errors.ts";
import { OlderBuildWriter, writeLegacyStore } from "./older-build-writer.ts";
import { STORE_PAGE_SIZE } from "./open-file.ts";
import { SessionStore } from "./session-store.ts";
import { createSeededMinter } from "./uid.ts";
import { assistant, HEX32, openStore, rawDb, tempDir, user } from "./test-support.ts";

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

const uidsById = (path: string): Array<string | null> => {
  const db = rawDb(path);
  const rows = db.prepare("SELECT message_uid FROM messages ORDER BY id").all() as Array<{ message_uid: string | null }>;
  db.close();
  return rows.map((row) => row.message_uid);
};
const meta = (path: string, key: string): string | null => {
  const db = rawDb(path);
  const row = db.prepare("SELECT value FROM state_meta WHERE key = ?").get(key) as { value: string } | undefined;
  db.close();
  return row?.value ?? null;
};

describe("schema v31 upgrade (UID-8)", () => {
  it("backfills legacy rows in bounded slices across opens: 2, then 4, then 5 uids with chunk 2 and budget 0", () => {
    const path = tmp.file();
    writeLegacyStore(path, [{ id: "old", messages: [user("a"), assistant("b"), user("c"), assistant("d"), user("e")] }]);
    expect(() => uidsById(path)).toThrow(/message_uid/);

    const history: Array<Array<string | null>> = [];
    for (let open = 0; open < 3; open++) {
      SessionStore.open(path, { backfillChunk: 2, backfillBudgetMs: 0 }).close();
      history.push(uidsById(path));
    }
    expect(history.map((uids) => uids.filter((uid) => uid !== null).length)).toEqual([2, 4, 5]);
    expect(history[1]?.slice(0, 2)).toEqual(history[0]?.slice(0, 2));
    expect(history[2]?.slice(0, 4)).toEqual(history[1]?.slice(0, 4));
    const final = history[2] as string[];
    for (const uid of final) expect(uid).toMatch(HEX32);
    expect(new Set(final).size).toBe(5);
    expect(meta(path, "message_uid_backfill")).toBe("1");
    expect(meta(path, "message_uid_backfill_id")).toBeNull();
  });

  it("adds the identity columns, the active uid index and the insert trigger, and moves the version to 31 on the first open", () => {
    const path = tmp.file();
    writeLegacyStore(path, [{ id: "old", messages: [user("a")] }]);
    const store = SessionStore.open(path, { backfillChunk: 2, backfillBudgetMs: 0 });
    expect(store.openReport).toMatchObject({ fresh: false, previousVersion: 30 });
    expect(store.schemaVersion).toBe(31);
    store.close();
    const db = rawDb(path);
    const names = (db.prepare("SELECT name FROM sqlite_master WHERE type IN ('index', 'trigger')").all() as Array<{ name: string }>).map((r) => r.name);
    expect(names).toEqual(expect.arrayContaining(["idx_messages_session_uid", "messages_message_uid_insert"]));
    const indexSql = (db.prepare("SELECT sql FROM sqlite_master WHERE name = 'idx_messages_session_uid'").get() as { sql: string }).sql;
    expect(indexSql).toMatch(/\(session_id, message_uid\) WHERE active = 1/);
    expect(names).toContain("idx_messages_session"); // the older build's timestamp index stays
    db.close();
  });

  it("creates a fresh store with the indexes its queries use and without upstream's timestamp index", () => {
    const path = tmp.file();
    SessionStore.open(path).close();
    const db = rawDb(path);
    const indexes = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'idx_%' ORDER BY name").all() as Array<{ name: string }>).map((r) => r.name);
    db.close();
    expect(indexes).toEqual(["idx_messages_session_id", "idx_messages_session_uid"]);
  });

  it("creates a store with 8 KiB pages and opens one written with SQLite's default 4 KiB pages as it is", () => {
    const fresh = tmp.file("fresh.db");
    SessionStore.open(fresh).close();
    const older = tmp.file("older.db");
    const made = rawDb(older);
    made.pragma("journal_mode = WAL");
    made.exec("CREATE TABLE unrelated (x)");
    made.close();
    const store = SessionStore.open(older);
    store.appendMessages("s", [user("hello")]);
    expect(store.getMessages("s").map((message) => message.content)).toEqual(["hello"]);
    store.close();
    const pageSize = (path: string) => {
      const db = rawDb(path);
      const size = db.pragma("page_size", { simple: true });
      db.close();
      return size;
    };
    expect(pageSize(fresh)).toBe(STORE_PAGE_SIZE);
    expect(pageSize(older)).toBe(4096);
  });

  it("resumes at the stored cursor and leaves rows of earlier slices untouched", () => {
    const path = tmp.file();
    writeLegacyStore(path, [{ id: "old", messages: Array.from({ length: 9 }, (_, i) => user(`m${i}`)) }]);
    const first = SessionStore.open(path, { backfillChunk: 4, backfillBudgetMs: 0 });
    expect(first.openReport.backfill).toMatchObject({ done: false, slices: 1, rowsFilled: 4, doneThroughId: 4 });
    first.close();
    expect(meta(path, "message_uid_backfill_id")).toBe("4");
    const second = SessionStore.open(path, { backfillChunk: 4, backfillBudgetMs: 0 });
    expect(second.openReport.backfill).toMatchObject({ done: false, rowsFilled: 4, doneThroughId: 8 });
    second.close();
    const third = SessionStore.open(path, { backfillChunk: 4, backfillBudgetMs: 60_000 });
    expect(third.openReport.backfill).toMatchObject({ done: true, rowsFilled: 1 });
    third.close();
  });

  it("marks a fresh store done at creation, so it is never scanned", () => {
    const path = tmp.file();
    const store = openStore(path);
    expect(store.openReport).toMatchObject({ fresh: true, backfill: { done: true, slices: 0 } });
    store.close();
    expect(meta(path, "message_uid_backfill")).toBe("1");
  });

  it("lets the marker, not the version, gate the scan: a v30 store already marked done is not rescanned", () => {
    const path = tmp.file();
    writeLegacyStore(path, [{ id: "old", messages: [user("a"), user("b")] }]);
    const db = rawDb(path);
    db.exec("CREATE TABLE IF NOT EXISTS state_meta (key TEXT PRIMARY KEY, value TEXT); INSERT INTO state_meta VALUES ('message_uid_backfill', '1')");
    db.close();
    const store = SessionStore.open(path, { backfillChunk: 2, backfillBudgetMs: 0 });
    expect(store.openReport.backfill.slices).toBe(0);
    store.close();
    expect(uidsById(path)).toEqual([null, null]);
  });

  it("gives a row inserted by an older build into a v31 store a uid through the trigger, and the restore returns it", () => {
    const path = tmp.file();
    const store = openStore(path);
    store.appendMessages("s1", [user("current build")]);
    const older = OlderBuildWriter.open(path);
    const [rowId] = older.append("s1", [assistant("older build reply")]);
    older.close();
    const stored = uidsById(path);
    expect(stored[1]).toMatch(HEX32);
    const restored = store.getMessages("s1", { includeRowIds: true });
    expect(restored[1]).toMatchObject({ _row_id: rowId, message_uid: stored[1] });
    store.close();
  });

  it("restores a legacy row that is not backfilled yet without a uid, and without an error (UID-2)", () => {
    const path = tmp.file();
    writeLegacyStore(path, [{ id: "old", messages: [user("a"), user("b"), user("c")] }]);
    const store = SessionStore.open(path, { backfillChunk: 1, backfillBudgetMs: 0 });
    const restored = store.getMessages("old");
    expect(restored.map((m) => typeof m.message_uid)).toEqual(["string", "undefined", "undefined"]);
    store.close();
  });

  it("takes no write lock when opening a settled store", () => {
    const path = tmp.file();
    openStore(path).close();
    const holder = rawDb(path);
    holder.exec("BEGIN IMMEDIATE");
    try {
      const store = SessionStore.open(path, { busyTimeoutMs: 0 });
      expect(store.getMessages("none")).toEqual([]);
      store.close();
    } finally {
      holder.exec("ROLLBACK");
      holder.close();
    }
  });
});

describe("seeded runs mint the same uids in SQL too", () => {
  it("the backfill and the older-build trigger follow the injected minter, so the same seed gives the same uids", () => {
    const run = (seed: number, name: string): Array<string | null> => {
      const path = tmp.file(name);
      writeLegacyStore(path, [{ id: "old", messages: [user("a"), assistant("b"), user("c")] }], { now: () => 1 });
      for (let open = 0; open < 2; open++) {
        SessionStore.open(path, { backfillChunk: 2, backfillBudgetMs: 0, mintUid: createSeededMinter(seed + open), now: () => 1 }).close();
      }
      const older = OlderBuildWriter.open(path, { mintUid: createSeededMinter(seed + 10), now: () => 1 });
      older.append("old", [user("from an older build")]);
      older.close();
      return uidsById(path);
    };
    const first = run(1, "a.db");
    expect(first).toHaveLength(4);
    for (const uid of first) expect(uid).toMatch(HEX32);
    expect(run(1, "b.db")).toEqual(first);
    expect(run(2, "c.db")).not.toEqual(first);
  });
});

describe("files the store refuses", () => {
  it("refuses a file that is not a SQLite database and leaves it untouched", () => {
    const path = tmp.file("notes.db");
    writeFileSync(path, "these are my notes, not a database\n".repeat(20));
    const before = { bytes: readFileSync(path), mtime: statSync(path).mtimeMs };
    expect(() => SessionStore.open(path)).toThrow(StoreOpenError);
    expect(() => SessionStore.open(path)).toThrow(/not a SQLite database/);
    expect(readFileSync(path).equals(before.bytes)).toBe(true);
    expect(statSync(path).mtimeMs).toBe(before.mtime);
  });

  it("refuses a store newer than v31 and leaves it untouched", () => {
    const path = tmp.file();
    openStore(path).close();
    const db = rawDb(path);
    db.exec("UPDATE schema_version SET version = 32");
    db.pragma("wal_checkpoint(TRUNCATE)");
    db.close();
    const before = { bytes: readFileSync(path), mtime: statSync(path).mtimeMs };
    expect(() => SessionStore.open(path)).toThrow(/schema v32, newer than this build \(v31\)/);
    expect(readFileSync(path).equals(before.bytes)).toBe(true);
    expect(statSync(path).mtimeMs).toBe(before.mtime);
  });
});
