import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { runChecksIsolated, workerEventLine, type SettledSources, type WorkerEvent } from "./isolated-runner.ts";
import type { Check, EvaluatedCheck } from "./types.ts";

const check = (id: string, probes: string[]): Check => ({ id, rule: id.split("/")[0]!, level: "MUST", title: id, scenarios: [], probes, evaluate: () => ({ outcome: "pass", message: "", evidence: [] }) });
const result = (id: string): EvaluatedCheck => ({ id, rule: id.split("/")[0]!, level: "MUST", title: id, sources: [], outcome: "pass", message: "ok", evidence: [], durationMs: 1 });

/** A worker played by `node -e`: it writes the given lines, then runs `tail` (code: spin, exit, or nothing). */
function fakeWorker(lines: Array<WorkerEvent | string>, tail: string) {
  const text = (line: WorkerEvent | string) => (typeof line === "string" ? line : workerEventLine(line));
  const script = `${lines.map((line) => `process.stdout.write(${JSON.stringify(text(line))});`).join("")}${tail}`;
  return spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "pipe"] });
}

describe("runChecksIsolated", () => {
  const checks = [check("A-1/a", ["probe:one"]), check("B-1/b", ["probe:two"])];

  it("settles the source a silent worker was playing and gives the remaining checks to a new worker", async () => {
    const calls: Array<{ ids: string[]; settled: SettledSources }> = [];
    const results = await runChecksIsolated(checks, {
      timeoutMs: 100,
      stallGraceMs: 400,
      spawnWorker: (ids, settled) => {
        calls.push({ ids, settled });
        if (calls.length === 1) return fakeWorker([{ event: "source", source: "probe:one" }, { event: "result", result: result("A-1/a") }, { event: "source", source: "probe:two" }], "for (;;) {}");
        return fakeWorker([{ event: "result", result: { ...result("B-1/b"), outcome: "timeout", message: settled[0]![1].message } }, { event: "done" }], "");
      },
    });
    expect(calls.map((call) => call.ids)).toEqual([["A-1/a", "B-1/b"], ["B-1/b"]]);
    expect(calls[1]!.settled).toEqual([["probe:two", { outcome: "timeout", message: expect.stringMatching(/^probe:two did not return control within 500 ms/) }]]);
    expect(results.map((r) => [r.id, r.outcome])).toEqual([["A-1/a", "pass"], ["B-1/b", "timeout"]]);
  });

  it("passes on what the engine prints on stdout, even glued to an event line, and parses only events", async () => {
    const printed: string[] = [];
    const results = await runChecksIsolated([checks[0]!], {
      timeoutMs: 100,
      onWorkerOutput: (text) => printed.push(text),
      spawnWorker: () => fakeWorker(["engine says hi\n", { event: "source", source: "probe:one" }, "no newline", { event: "result", result: result("A-1/a") }, { event: "done" }], ""),
    });
    expect(results.map((r) => r.id)).toEqual(["A-1/a"]);
    expect(printed.join("")).toBe("engine says hi\nno newline\n");
  });

  it("fails loudly when a worker dies before it starts any source, with what it printed", async () => {
    await expect(
      runChecksIsolated(checks, { timeoutMs: 100, stallGraceMs: 400, spawnWorker: () => fakeWorker([], 'process.stderr.write("engine not found"); process.exit(2);') }),
    ).rejects.toThrow(/exited \(code 2\) before it started a new scenario or probe:\nengine not found/);
  });

  it("fails loudly when a worker reports done without every result", async () => {
    await expect(
      runChecksIsolated(checks, { timeoutMs: 100, spawnWorker: () => fakeWorker([{ event: "result", result: result("A-1/a") }, { event: "done" }], "") }),
    ).rejects.toThrow(/finished without results for B-1\/b/);
  });
});
