import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { stripPersistenceFields } from "../contract/persistence-fields.ts";
import { createSeededMinter } from "./uid.ts";
import { assistant, HEX32, openStore, rawDb, tempDir, uidOf, user } from "./test-support.ts";

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

describe("minting at insert (UID-1)", () => {
  it("mints a 32-hex uid, stamps it on the caller's object and stores the same value", () => {
    const store = openStore(tmp.file());
    const first = user("hello");
    const second = assistant("hi");
    const [rowA, rowB] = store.appendMessages("s1", [first, second]);
    expect(uidOf(first)).toMatch(HEX32);
    expect(uidOf(second)).toMatch(HEX32);
    expect(first._row_id).toBe(rowA);
    const stored = store.getRows("s1").map((row) => [row.id, row.message_uid]);
    expect(stored).toEqual([
      [rowA, first.message_uid],
      [rowB, second.message_uid],
    ]);
    store.close();
  });

  it("keeps any non-empty string supplied and replaces blank or non-string values", () => {
    const store = openStore(tmp.file());
    const supplied = user("a", { message_uid: "e".repeat(32) });
    const custom = user("b", { message_uid: "not-hex-but-a-uid" });
    const blank = user("c", { message_uid: "" });
    const numeric = user("d", { message_uid: 42 as unknown as string });
    store.appendMessages("s1", [supplied, custom, blank, numeric]);
    expect(supplied.message_uid).toBe("e".repeat(32));
    expect(custom.message_uid).toBe("not-hex-but-a-uid");
    expect(uidOf(blank)).toMatch(HEX32);
    expect(uidOf(numeric)).toMatch(HEX32);
    expect(store.getMessages("s1").map((m) => m.message_uid)).toEqual([supplied.message_uid, custom.message_uid, blank.message_uid, numeric.message_uid]);
    store.close();
  });

  it("gives identical messages (same role, content and timestamp) different uids: a uid is per occurrence", () => {
    const store = openStore(tmp.file());
    const twins = [user("same", { timestamp: 5 }), user("same", { timestamp: 5 })];
    store.appendMessages("s1", twins);
    expect(uidOf(twins[0])).not.toBe(uidOf(twins[1]));
    const again = user("same", { timestamp: 5 });
    store.appendMessages("s2", [again]);
    expect([uidOf(twins[0]), uidOf(twins[1])]).not.toContain(uidOf(again));
    store.close();
  });

  it("uses the injected minter, so a seeded run is reproducible", () => {
    const uidsFor = (seed: number, name: string): string[] => {
      const store = openStore(tmp.file(name), { mintUid: createSeededMinter(seed) });
      const batch = [user("x"), assistant("y")];
      store.appendMessages("s", batch);
      store.close();
      return batch.map(uidOf);
    };
    const a = uidsFor(7, "a.db");
    expect(uidsFor(7, "b.db")).toEqual(a);
    expect(uidsFor(8, "c.db")).not.toEqual(a);
    for (const uid of a) expect(uid).toMatch(HEX32);
  });
});

describe("restore carries identity without asking for row ids", () => {
  it("returns uids on the plain restore, the repaired restore and the row projection; _row_id only on request", () => {
    const path = tmp.file();
    const store = openStore(path);
    const batch = [user("one"), assistant("two"), user("three")];
    store.appendMessages("s1", batch);
    store.close();

    const reopened = openStore(path);
    const expected = batch.map(uidOf);
    const plain = reopened.getMessages("s1");
    expect(plain.map((m) => m.message_uid)).toEqual(expected);
    expect(plain.every((m) => !("_row_id" in m))).toBe(true);
    expect(reopened.getMessages("s1", { repairAlternation: true }).map((m) => m.message_uid)).toEqual(expected);
    expect(reopened.getRows("s1").map((row) => row.message_uid)).toEqual(expected);
    const withIds = reopened.getMessages("s1", { includeRowIds: true });
    expect(withIds.map((m) => m._row_id)).toEqual(batch.map((m) => m._row_id));
    expect(withIds.map((m) => m.message_uid)).toEqual(expected);
    reopened.close();
  });

  it("keeps identity off the wire: a restored list stripped for the provider has no identity fields (WIRE-1)", () => {
    const store = openStore(tmp.file());
    store.appendMessages("s1", [user("q"), assistant("a")]);
    const wire = store.getMessages("s1", { includeRowIds: true }).map(stripPersistenceFields);
    for (const message of wire) {
      expect(Object.keys(message).sort()).toEqual(["content", "role"]);
    }
    store.close();
  });

  it("stores the tables upstream has, in WAL mode, with the four nullable identity columns", () => {
    const path = tmp.file();
    openStore(path).close();
    const db = rawDb(path);
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{ name: string }>).map((t) => t.name);
    expect(tables).toEqual(expect.arrayContaining(["messages", "schema_version", "sessions", "state_meta"]));
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    const columns = db.prepare("PRAGMA table_info(messages)").all() as Array<{ name: string; notnull: number; dflt_value: unknown }>;
    for (const name of ["message_uid", "absorbed_message_uids", "tool_call_uids", "tool_call_uid"]) {
      const column = columns.find((c) => c.name === name);
      expect(column).toMatchObject({ notnull: 0, dflt_value: null });
    }
    expect(db.prepare("SELECT version FROM schema_version").all()).toEqual([{ version: 31 }]);
    db.close();
  });
});
