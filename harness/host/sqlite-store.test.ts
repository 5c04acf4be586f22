import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { ARCHIVE_MARKS_TABLE } from "../store/archive-marks.ts";
import { createSeededMinter } from "../store/index.ts";
import { UsageError } from "../util/errors.ts";
import { ScenarioPlayError, SqliteHostStore } from "./sqlite-store.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A store file's path in a directory of its own, removed after the test. */
function storePath(): string {
  const dir = mkdtempSync(join(tmpdir(), "ctxbench-host-store-"));
  dirs.push(dir);
  return join(dir, "sessions.db");
}

function open(): SqliteHostStore {
  return SqliteHostStore.open({ path: storePath(), mintUid: createSeededMinter(1), now: () => 1 });
}

describe("scenario events addressed to a message index", () => {
  it("apply to the message at that index", () => {
    const store = open();
    store.append("s", [{ role: "system", content: "sys" }, { role: "user", content: "before" }]);
    store.rewriteContent("s", 1, "after");
    expect(store.restore("s").map((m) => m.content)).toEqual(["sys", "after"]);
    store.close();
  });

  it("name the scenario, not ctxbench, when this play left fewer messages than the index (exit 2)", () => {
    const store = open();
    store.append("s", [{ role: "system", content: "sys" }, { role: "user", content: "only" }]);
    expect(() => store.rewriteContent("s", 5, "x")).toThrow(ScenarioPlayError);
    expect(() => store.duplicateRow("s", 5, "x")).toThrow(UsageError);
    expect(() => store.rewriteContent("s", 5, "x")).toThrow(`the scenario's event names message 5 of session "s", which holds 2 message(s) at that point of this play`);
    store.close();
  });
});

/** Another connection cannot even read the file. */
function expectLockedOut(path: string): void {
  const other = new Database(path, { timeout: 0 });
  try {
    expect(() => other.prepare("SELECT COUNT(*) FROM messages").get()).toThrow(/locked/);
  } finally {
    other.close();
  }
}

describe("a scratch store (a certification's, deleted after the play)", () => {
  const conversation = (n: number) => Array.from({ length: n }, (_, i) => ({ role: i % 2 === 0 ? ("user" as const) : ("assistant" as const), content: `m${i}` }));
  const openAt = (path: string, scratch: boolean) => SqliteHostStore.open({ path, mintUid: createSeededMinter(1), now: () => 1, scratch });

  it("does not sync to disk, and leaves archive marks unsettled at close; reopened, it reads the same history", () => {
    const path = storePath();
    const store = openAt(path, true);
    expect(store.sessionStore.connectionPragma("synchronous")).toBe(0);
    store.append("s", conversation(12));
    store.compactInPlace("s", [{ role: "user", content: "[summary]" }]);
    const history = store.restore("s");
    store.close();
    const marks = new Database(path);
    expect(marks.prepare(`SELECT COUNT(*) AS n FROM ${ARCHIVE_MARKS_TABLE}`).get()).toEqual({ n: 1 });
    expect((marks.prepare("SELECT COUNT(*) AS n FROM messages WHERE active = 1").get() as { n: number }).n).toBeGreaterThan(1);
    marks.close();
    store.reopen();
    expect(store.restore("s")).toEqual(history);
    store.close();
  });

  it("holds its file alone (exclusive locking, journal in memory): another connection is refused while it is open", () => {
    const path = storePath();
    const store = openAt(path, true);
    expect(store.sessionStore.connectionPragma("journal_mode")).toBe("memory");
    store.append("s", conversation(2));
    expectLockedOut(path);
    store.close();
  });

  it("lets an older build write for its moment, then holds the file again: the insert trigger minted the older rows' uids", () => {
    const path = storePath();
    const store = openAt(path, true);
    store.append("s", conversation(2));
    store.legacyWrite("s", [{ role: "user", content: "from an older build" }]);
    const history = store.restore("s");
    expect(history.map((message) => message.content)).toEqual(["m0", "m1", "from an older build"]);
    expect(history.every((message) => typeof message.message_uid === "string")).toBe(true);
    expect(store.sessionStore.connectionPragma("journal_mode")).toBe("memory");
    store.append("s", conversation(1));
    expectLockedOut(path);
    store.close();
  });

  it("a durable one syncs (synchronous = NORMAL) and settles its marks at close", () => {
    const path = storePath();
    const store = openAt(path, false);
    expect(store.sessionStore.connectionPragma("synchronous")).toBe(1);
    expect(store.sessionStore.connectionPragma("journal_mode")).toBe("wal");
    store.append("s", conversation(12));
    store.compactInPlace("s", [{ role: "user", content: "[summary]" }]);
    store.close();
    const marks = new Database(path);
    expect(marks.prepare(`SELECT COUNT(*) AS n FROM ${ARCHIVE_MARKS_TABLE}`).get()).toEqual({ n: 0 });
    expect(marks.prepare("SELECT COUNT(*) AS n FROM messages WHERE active = 1").get()).toEqual({ n: 1 });
    marks.close();
  });
});
