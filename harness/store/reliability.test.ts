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

describe("crash safety and concurrent writers", () => {
  it("a writer killed in the middle of a batch loses no committed row and leaves no partial batch", async () => {
    const path = tmp.file();
    const batchSize = 500;
    const dieAtRow = 3 * batchSize + 217;
    const run = await runChild(["append-then-die", path, String(batchSize), String(dieAtRow)]);
    expect(run.signal).toBe("SIGKILL");
    const committed = run.stdout.trim().split("\n").filter(Boolean).length;
    expect(committed).toBe(3);

    const db = rawDb(path);
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
    const rows = db.prepare("SELECT content, message_uid FROM messages ORDER BY id").all() as Array<{ content: string; message_uid: string }>;
    db.close();
    expect(rows).toHaveLength(committed * batchSize);
    expect(rows.at(-1)?.content).toBe(`batch ${committed - 1} message ${batchSize - 1}`);
    expect(rows.every((row) => HEX32.test(row.message_uid))).toBe(true);
    const store = openStore(path);
    expect(store.getMessages("victim")).toHaveLength(committed * batchSize);
    store.close();
  });

  it("a backfill killed between slices resumes at its cursor and keeps the uids it already wrote", async () => {
    const path = tmp.file();
    writeLegacyStore(path, [{ id: "old", messages: Array.from({ length: 50 }, (_, i) => user(`m${i}`)) }]);
    const run = await runChild(["backfill-then-die", path, "10", "3"]);
    expect(run.signal).toBe("SIGKILL");

    const db = rawDb(path);
    const cursor = db.prepare("SELECT value FROM state_meta WHERE key = 'message_uid_backfill_id'").get() as { value: string };
    const before = (db.prepare("SELECT message_uid FROM messages ORDER BY id").all() as Array<{ message_uid: string | null }>).map((r) => r.message_uid);
    db.close();
    expect(cursor.value).toBe("30");
    expect(before.filter((uid) => uid !== null)).toHaveLength(30);

    const store = openStore(path, { backfillChunk: 10 });
    expect(store.openReport.backfill).toMatchObject({ done: true, slices: 2, rowsFilled: 20 });
    const after = store.getRows("old").map((row) => row.message_uid);
    store.close();
    expect(after.slice(0, 30)).toEqual(before.slice(0, 30));
    expect(new Set(after).size).toBe(50);
  });

  it("a writer killed right after committing a compaction leaves its archive mark; the next open reads the compacted history and settles it", async () => {
    const path = tmp.file();
    const run = await runChild(["compact-then-die", path, "3000"]);
    expect(run.signal).toBe("SIGKILL");
    expect(run.stdout).toBe("compacted\n");

    const db = rawDb(path);
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
    const staleActive = db.prepare("SELECT count(*) FROM messages WHERE active = 1").pluck().get();
    db.close();
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
