import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeLegacyStore } from "./older-build-writer.ts";
import { HEX32, openStore, rawDb, tempDir, user } from "./test-support.ts";

const CHILD = fileURLToPath(new URL("./reliability-child.ts", import.meta.url));

function runChild(args: string[]): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", CHILD, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

// Each kill is a process of its own (about a second each on a loaded 2-core machine).
describe("crash safety and concurrent writers", { timeout: 240_000 }, () => {
  // Where each writer dies: the minting of that row of its own run (a batch is 500 rows), so at the
  // first and last row of a batch, on either side of a batch boundary, and in the middle.
  const WRITER_DEATHS = [1, 217, 499, 500, 501, 999, 1000, 1001, 1234, 1717];
  it(`${WRITER_DEATHS.length} writers killed in the middle of a batch, one after another on one store, lose no committed row and leave no partial batch`, async ({ task }) => {
    const path = tmp.file();
    const batchSize = 500;
    let expected = 0;
    let rowsLost = 0;
    for (const [kill, dieAtRow] of WRITER_DEATHS.entries()) {
      const run = await runChild(["append-then-die", path, String(batchSize), String(dieAtRow)]);
      expect(run.signal, run.stderr).toBe("SIGKILL");
      const committed = run.stdout.trim().split("\n").filter(Boolean).length;
      expect(committed).toBe(Math.floor((dieAtRow - 1) / batchSize));
      expected += committed * batchSize;

      const db = rawDb(path);
      expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
      const rows = db.prepare("SELECT content, message_uid FROM messages ORDER BY id").all() as Array<{ content: string; message_uid: string }>;
      db.close();
      rowsLost += Math.max(0, expected - rows.length);
      expect(rows, `after kill ${kill + 1}`).toHaveLength(expected);
      if (committed > 0) expect(rows.at(-1)?.content).toBe(`batch ${committed - 1} message ${batchSize - 1}`);
      expect(rows.every((row) => HEX32.test(row.message_uid))).toBe(true);
      expect(new Set(rows.map((row) => row.message_uid)).size).toBe(rows.length);
    }
    task.meta.fault = { suite: "store: writers killed (SIGKILL) mid-batch", outcome: "no committed row lost, no partial batch", kills: WRITER_DEATHS.length, rowsLost };
    expect(rowsLost).toBe(0);
    const store = openStore(path);
    expect(store.getMessages("victim")).toHaveLength(expected);
    store.close();
  });

  it("a v30 backfill killed after every slice, ten times, resumes at its cursor each time and keeps every uid it already wrote", async ({ task }) => {
    const path = tmp.file();
    const rows = 100;
    const chunk = 10;
    writeLegacyStore(path, [{ id: "old", messages: Array.from({ length: rows }, (_, i) => user(`m${i}`)) }]);
    const read = () => {
      const db = rawDb(path);
      const cursor = db.prepare("SELECT value FROM state_meta WHERE key = 'message_uid_backfill_id'").get() as { value: string } | undefined;
      const stored = db.prepare("SELECT content, message_uid FROM messages ORDER BY id").all() as Array<{ content: string; message_uid: string | null }>;
      db.close();
      return { cursor: cursor?.value, stored };
    };
    let kills = 0;
    let rowsLost = 0;
    // A v30 store has no uid column until the first open adds it: every row starts without one.
    let before: Array<{ content: string; message_uid: string | null }> = Array.from({ length: rows }, (_, i) => ({ content: `m${i}`, message_uid: null }));
    for (let slice = 1; slice <= rows / chunk; slice++) {
      const run = await runChild(["backfill-then-die", path, String(chunk), "1"]);
      expect(run.signal, run.stderr).toBe("SIGKILL");
      kills += 1;
      const after = read();
      rowsLost += Math.max(0, rows - after.stored.length);
      expect(after.stored.map((row) => row.content)).toEqual(before.map((row) => row.content));
      expect(after.cursor).toBe(String(slice * chunk));
      const filled = after.stored.filter((row) => row.message_uid !== null);
      expect(filled).toHaveLength(slice * chunk);
      // What an earlier slice wrote is kept: the uids of the rows filled before this kill did not change.
      expect(after.stored.slice(0, (slice - 1) * chunk)).toEqual(before.slice(0, (slice - 1) * chunk));
      before = after.stored;
    }
    task.meta.fault = { suite: "store: a v30 → v31 backfill killed (SIGKILL) between slices", outcome: "resumed at its cursor, no uid rewritten", kills, rowsLost };
    expect(rowsLost).toBe(0);

    const store = openStore(path, { backfillChunk: chunk });
    expect(store.openReport.backfill).toMatchObject({ done: true, rowsFilled: 0 });
    const uids = store.getRows("old").map((row) => row.message_uid);
    store.close();
    expect(uids).toEqual(before.map((row) => row.message_uid));
    expect(new Set(uids).size).toBe(rows);
  });

  it("a writer killed right after committing a compaction leaves its archive mark; the next open reads the compacted history and settles it", async ({ task }) => {
    const path = tmp.file();
    const run = await runChild(["compact-then-die", path, "3000"]);
    expect(run.signal).toBe("SIGKILL");
    expect(run.stdout).toBe("compacted\n");

    const db = rawDb(path);
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
    const staleActive = db.prepare("SELECT count(*) FROM messages WHERE active = 1").pluck().get();
    const originals = db.prepare("SELECT count(*) FROM messages WHERE content LIKE 'old message %'").pluck().get() as number;
    db.close();
    // The compaction archives the 3,000 rows it replaced (the last one is also kept as a new row); none may be gone.
    task.meta.fault = { suite: "store: a writer killed (SIGKILL) right after a compaction", outcome: "compacted history read back and settled", kills: 1, rowsLost: Math.max(0, 3001 - originals) };
    expect(originals).toBe(3001);
    expect(staleActive).toBe(3002);

    const store = openStore(path);
    expect(store.getMessages("victim").map((m) => m.content)).toEqual(["[summary]", "old message 2999"]);
    expect(store.openReport.settle).toMatchObject({ done: true, rowsSettled: 3000 });
    store.close();
    const settled = rawDb(path);
    expect(settled.prepare("SELECT content FROM messages WHERE active = 1 ORDER BY id").pluck().all()).toEqual(["[summary]", "old message 2999"]);
    expect(settled.prepare("SELECT count(*) FROM messages WHERE active = 0 AND compacted = 1").pluck().get()).toBe(3000);
    settled.close();
  });

  it("two processes appending to different sessions of one store both succeed", async () => {
    const path = tmp.file();
    openStore(path).close();
    const [left, right] = await Promise.all([
      runChild(["append", path, "left", "300", "20"]),
      runChild(["append", path, "right", "300", "20"]),
    ]);
    expect([left.code, left.stderr]).toEqual([0, ""]);
    expect([right.code, right.stderr]).toEqual([0, ""]);
    const store = openStore(path);
    expect(store.getMessages("left")).toHaveLength(6000);
    expect(store.getMessages("right")).toHaveLength(6000);
    store.close();
  });
});
