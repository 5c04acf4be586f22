import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BatchInserter, INSERT_COLUMNS } from "./batch-insert.ts";
import { openConnection } from "./open-file.ts";
import { COPIED_COLUMNS } from "./rows.ts";
import { HEX32, openStore, tempDir } from "./test-support.ts";

let sandbox: ReturnType<typeof tempDir>;
beforeEach(() => {
  sandbox = tempDir();
});
afterEach(() => sandbox.cleanup());

const column = (name: (typeof INSERT_COLUMNS)[number]) => INSERT_COLUMNS.indexOf(name);

/** A row of INSERT_COLUMNS values; `i` varies which optional columns are set, so chunks mix shapes. */
function row(i: number): unknown[] {
  const values: unknown[] = INSERT_COLUMNS.map(() => null);
  values[column("role")] = i % 3 === 0 ? "user" : i % 3 === 1 ? "assistant" : "tool";
  values[column("content")] = i % 5 === 0 ? null : `message ${i}`;
  values[column("timestamp")] = 1_700_000_000 + i / 10;
  values[column("message_uid")] = i % 7 === 0 ? null : i.toString(16).padStart(32, "0");
  if (i % 3 === 2) values[column("tool_call_id")] = `call_${i}`;
  if (i % 11 === 0) values[column("reasoning")] = `thought ${i}`;
  values[column("active")] = i % 13 === 0 ? 0 : 1;
  values[column("compacted")] = i % 17 === 0 ? 1 : 0;
  return values;
}

function storedRows(path: string, session: string): Array<Record<string, unknown>> {
  const db = openConnection(path, 1000);
  try {
    return db.prepare(`SELECT id, ${INSERT_COLUMNS.join(", ")} FROM messages WHERE session_id = ? ORDER BY id`).all(session) as Array<Record<string, unknown>>;
  } finally {
    db.close();
  }
}

/** Inserts `rows` one statement per row: what the batch inserter must be indistinguishable from. */
function insertOneByOne(path: string, session: string, rows: unknown[][]): void {
  const db = openConnection(path, 1000);
  const statement = db.prepare(`INSERT INTO messages (session_id, ${INSERT_COLUMNS.join(", ")}) VALUES (?${INSERT_COLUMNS.map(() => ", ?").join("")})`);
  db.transaction(() => rows.forEach((values) => statement.run(session, ...values))).immediate();
  db.close();
}

function prepareStore(path: string, sessions: string[]): void {
  const store = openStore(path);
  sessions.forEach((id) => store.createSession(id));
  store.close();
}

describe("BatchInserter", () => {
  it("stores exactly what one INSERT per row stores, across chunk sizes and mixed row shapes", () => {
    const rows = Array.from({ length: 301 }, (_, i) => row(i)); // 128 + 128 + 32 + 8 + 4 + 1
    const batched = sandbox.file("batched.db");
    const single = sandbox.file("single.db");
    prepareStore(batched, ["s"]);
    prepareStore(single, ["s"]);
    const db = openConnection(batched, 1000);
    const ids = db.transaction(() => new BatchInserter(db).insert("s", rows)).immediate();
    db.close();
    insertOneByOne(single, "s", rows);

    const fromBatch = storedRows(batched, "s");
    const fromSingle = storedRows(single, "s");
    expect(fromBatch.map((r) => r.id)).toEqual(ids);
    const identityFree = (r: Record<string, unknown>) => ({ ...r, message_uid: r.message_uid === null ? null : "kept" });
    expect(fromBatch.map(identityFree)).toEqual(fromSingle.map(identityFree));
    rows.forEach((values, i) => {
      const stored = fromBatch[i] as Record<string, unknown>;
      const supplied = values[column("message_uid")];
      if (supplied === null) expect(stored.message_uid).toMatch(HEX32); // the insert trigger still fires
      else expect(stored.message_uid).toBe(supplied);
    });
  });

  it("returns consecutive ids in insertion order, continuing after rows already in the table", () => {
    const path = sandbox.file();
    prepareStore(path, ["a", "b"]);
    const db = openConnection(path, 1000);
    const inserter = new BatchInserter(db);
    const first = db.transaction(() => inserter.insert("a", Array.from({ length: 130 }, (_, i) => row(i)))).immediate();
    const second = db.transaction(() => inserter.insert("b", [row(1), row(2), row(3)])).immediate();
    db.close();
    expect(first).toEqual(Array.from({ length: 130 }, (_, i) => (first[0] as number) + i));
    expect(second).toEqual([131, 132, 133].map((n) => n + (first[0] as number) - 1));
    expect(storedRows(path, "b").map((r) => r.id)).toEqual(second);
  });

  it("inserts nothing and returns no ids for an empty batch", () => {
    const path = sandbox.file();
    prepareStore(path, ["s"]);
    const db = openConnection(path, 1000);
    expect(new BatchInserter(db).insert("s", [])).toEqual([]);
    db.close();
    expect(storedRows(path, "s")).toEqual([]);
  });

  it("keeps working when more row shapes turn up than it keeps statements for", () => {
    const path = sandbox.file();
    prepareStore(path, ["s"]);
    const db = openConnection(path, 1000);
    const inserter = new BatchInserter(db);
    const optional = COPIED_COLUMNS.filter((name) => !["role", "timestamp"].includes(name));
    const shapes = Array.from({ length: 300 }, (_, shape) => {
      const values: unknown[] = INSERT_COLUMNS.map(() => null);
      values[column("role")] = "user";
      values[column("timestamp")] = shape;
      values[column("active")] = 1;
      values[column("compacted")] = 0;
      optional.forEach((name, bit) => {
        if ((shape & (1 << bit)) !== 0) values[column(name)] = `v${shape}`;
      });
      return values;
    });
    db.transaction(() => shapes.forEach((values) => inserter.insert("s", [values, values]))).immediate();
    db.close();
    const stored = storedRows(path, "s");
    expect(stored).toHaveLength(600);
    expect(stored[599]?.timestamp).toBe(299);
  });
});
