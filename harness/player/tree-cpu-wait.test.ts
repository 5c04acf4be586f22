import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { descendants, TreeCpuWait } from "./tree-cpu-wait.ts";

/** A fake /proc: `thread(pid, tid, waitMs, children)` writes one thread's schedstat and children. */
function fakeProc() {
  const root = mkdtempSync(join(tmpdir(), "ctxbench-fake-proc-"));
  return {
    root,
    thread(pid: number, tid: number, waitMs: number, children: number[] = []) {
      const task = join(root, String(pid), "task", String(tid));
      mkdirSync(task, { recursive: true });
      const line = `123 ${waitMs * 1e6} 4\n`;
      writeFileSync(join(task, "schedstat"), line);
      writeFileSync(join(task, "children"), children.map((child) => `${child} `).join(""));
      if (pid === tid) writeFileSync(join(root, String(pid), "schedstat"), line);
    },
    exit(pid: number) {
      rmSync(join(root, String(pid)), { recursive: true, force: true });
    },
  };
}

const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

describe("TreeCpuWait: the CPU wait of a player and the processes below it", () => {
  it("counts the root's main thread and every thread of every descendant, at any depth", () => {
    const proc = fakeProc();
    cleanups.push(() => rmSync(proc.root, { recursive: true, force: true }));
    proc.thread(10, 10, 5, [20]);
    proc.thread(10, 11, 1000); // a helper thread of the player: not counted
    proc.thread(20, 20, 7, [30]);
    proc.thread(20, 21, 11); // a pool thread of the bridge: counted
    proc.thread(30, 30, 13);
    expect(new TreeCpuWait(10, proc.root).read()).toBe(5 + 7 + 11 + 13);
  });

  it("keeps the wait of a child that has exited, so the total never goes back", () => {
    const proc = fakeProc();
    cleanups.push(() => rmSync(proc.root, { recursive: true, force: true }));
    proc.thread(10, 10, 5, [20]);
    proc.thread(20, 20, 100);
    const wait = new TreeCpuWait(10, proc.root);
    expect(wait.read()).toBe(105);
    proc.exit(20);
    proc.thread(10, 10, 6, [40]);
    proc.thread(40, 40, 3);
    expect(wait.read()).toBe(100 + 6 + 3);
  });

  it("a thread id reused with a smaller count is a new thread: the old one's wait stays counted", () => {
    const proc = fakeProc();
    cleanups.push(() => rmSync(proc.root, { recursive: true, force: true }));
    proc.thread(10, 10, 0, [20]);
    proc.thread(20, 20, 50);
    const wait = new TreeCpuWait(10, proc.root);
    expect(wait.read()).toBe(50);
    proc.thread(20, 20, 2);
    expect(wait.read()).toBe(52);
  });

  it("no root, or no such process: 0", () => {
    expect(new TreeCpuWait(undefined).read()).toBe(0);
    expect(new TreeCpuWait(2 ** 30).read()).toBe(0);
  });

  it.runIf(process.platform === "linux")("reads the real /proc: this process with a child below it", async () => {
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 5000)"], { stdio: "ignore" });
    cleanups.push(() => child.kill("SIGKILL"));
    await new Promise((resolve) => child.once("spawn", resolve));
    expect(descendants(process.pid)).toContain(child.pid);
    const wait = new TreeCpuWait(process.pid);
    const first = wait.read();
    expect(first).toBeGreaterThanOrEqual(0);
    expect(wait.read()).toBeGreaterThanOrEqual(first);
  });
});
