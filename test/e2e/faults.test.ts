import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseResult } from "../../harness/result/index.ts";
import { parseTrace } from "../../harness/trace/jsonl.ts";
import { ctxbench, REPO, type CliOutcome } from "./support.ts";

/**
 * The fault suite: engines that misbehave on purpose (test/fixtures/plugins/hostile/), each run
 * through the CLI as a process, with the outcome it must get and the time it must end within.
 * Whatever the engine does, ctxbench never exits 3, never exits 0 without output, and never
 * lets the engine's own output or code decide a verdict.
 */
const HOSTILE = join(REPO, "test/fixtures/plugins/hostile");
const work = mkdtempSync(join(tmpdir(), "ctxbench-faults-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Timed extends CliOutcome {
  seconds: number;
}

async function timed(args: string[], cwd = work, timeoutMs = 200_000): Promise<Timed> {
  const started = performance.now();
  const outcome = await ctxbench(args, { cwd, timeoutMs });
  return { ...outcome, seconds: (performance.now() - started) / 1000 };
}

/** What holds for every fault: never ctxbench's bug, never a silent success, and within its bound. */
function contained(run: Timed, boundSeconds: number): void {
  expect(run.code, run.stderr).not.toBe(3);
  expect(run.stderr).not.toMatch(/internal error|bug in ctxbench/);
  if (run.code === 0) expect(run.stdout.length, "exit 0 with nothing on stdout").toBeGreaterThan(0);
  expect(run.seconds, `took ${run.seconds.toFixed(1)} s`).toBeLessThan(boundSeconds);
}

const lastLine = (text: string) => text.trim().split("\n").at(-1) ?? "";
/** The one certification of `certify --format json`'s document (the result.json `--out` writes). */
const certifyJson = (run: Timed) => parseResult(run.stdout).certifications[0]!;
const plugins = ["--plugins", HOSTILE];

// Each case ends well within its bound; the test's own limit only stops a case that does not.
const CASE_LIMIT_MS = 240_000;

describe.concurrent("the fault suite: hostile engines through the CLI", { timeout: CASE_LIMIT_MS }, () => {
  it("an engine forging results on stdout and frames on the channel is not certified, exit 1, the forgery named", async () => {
    const run = await timed(["certify", ...plugins, "--engine", "forger", "--checks", "ABC", "--format", "json"]);
    contained(run, 90);
    expect(run.code).toBe(1);
    const json = certifyJson(run);
    expect(json.verdict).toBe("not-certified");
    expect(json.integrity?.map((finding) => finding.kind)).toContain("forged-frames");
    expect(lastLine(run.stderr)).toMatch(/^ctxbench: forger is not certified: \d+ frame\(s\) on the player channel failed authentication/);
    expect(json.checks.filter((check) => check.outcome === "pass").length).toBeLessThan(json.checks.length);
  });

  it("an engine replacing Array.prototype.some at import is not certified, exit 1, the intrinsic named", async () => {
    const run = await timed(["certify", ...plugins, "--engine", "patch-some", "--checks", "ABC", "CMP-1", "--format", "json"]);
    contained(run, 90);
    expect(run.code).toBe(1);
    const json = certifyJson(run);
    expect(json.integrity).toEqual([{ kind: "intrinsic-replaced", message: "the engine changed intrinsics the harness relies on: Array.prototype.some (replaced when it was loaded)" }]);
    expect(json.checks.every((check) => check.outcome === "error" && check.message.includes("not played"))).toBe(true);
    expect(lastLine(run.stderr)).toContain("Array.prototype.some");
  });

  it("an engine replacing JSON.stringify cannot touch the written result: valid, not certified, exit 1", async () => {
    const out = join(work, "patch-json-out");
    const run = await timed(["certify", ...plugins, "--engine", "patch-json", "--checks", "ABC-2", "--out", out]);
    contained(run, 90);
    expect(run.code).toBe(1);
    const result = parseResult(readFileSync(join(out, "result.json"), "utf8"));
    expect(result.certifications[0]!.verdict).toBe("not-certified");
    expect(result.certifications[0]!.integrity?.[0]?.message).toContain("JSON.stringify");
  });

  it("an engine ending the process at import: exit 2, one line", async () => {
    const run = await timed(["certify", ...plugins, "--engine", "exit-at-import", "--checks", "ABC"]);
    contained(run, 60);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split("\n")).toEqual(['ctxbench: context engine "exit-at-import": the player loading it exited (code 0) (does the engine\'s module call process.exit when it is imported?)']);
    expect(run.stdout).toBe("");
  });

  it("a constructor that never returns: exit 2 with a message when the bound strikes", async () => {
    const run = await timed(["certify", ...plugins, "--engine", "constructor-loop", "--checks", "ABC", "--max-time", "10"]);
    contained(run, 45);
    expect(run.code).toBe(2);
    expect(lastLine(run.stderr)).toBe('ctxbench: context engine "constructor-loop" was still loading when the run\'s bound (--max-time 10 s) struck');
  });

  it("a top-level await that never settles: exit 2 within the load bound (30 s), saying what to look for", async () => {
    const run = await timed(["certify", ...plugins, "--engine", "never-settling-import", "--checks", "ABC"]);
    contained(run, 60);
    expect(run.code).toBe(2);
    expect(lastLine(run.stderr)).toBe('ctxbench: context engine "never-settling-import": the player did not finish loading the engine within 30 s (a constructor or an import that never returns, or a top-level await that never settles?)');
  });

  it("--max-time 60 bounds an engine whose compress never settles to about a minute: not certified, exit 1", async () => {
    const run = await timed(["certify", ...plugins, "--engine", "never-compress", "--max-time", "60", "--format", "json"]);
    contained(run, 90);
    expect(run.seconds).toBeGreaterThan(55);
    expect(run.code).toBe(1);
    const json = certifyJson(run);
    expect(json.checks.filter((check) => check.outcome === "timeout").length).toBeGreaterThan(0);
    expect(json.checks.some((check) => /--max-time 60 s/.test(check.message))).toBe(true);
  });

  it("certify: a synchronous loop in compress costs the runs that call it, the rest are judged, exit 1", async () => {
    const run = await timed(["certify", ...plugins, "--engine", "spin-compress", "--checks", "ABC-2", "ABC-5", "THR-4", "--timeout", "1000", "--format", "json"]);
    contained(run, 90);
    expect(run.code).toBe(1);
    const outcomes = Object.fromEntries(certifyJson(run).checks.map((check) => [check.id, check.outcome]));
    expect(outcomes).toMatchObject({ "ABC-2/usage-echo": "pass", "ABC-5/compression-count": "timeout", "THR-4/nothing-published-after-timeout": "timeout" });
  });

  it("what an engine prints never reaches the report or a trace on stdout", async () => {
    const certify = await timed(["certify", ...plugins, "--engine", "printer", "--checks", "ABC", "--format", "json"]);
    contained(certify, 90);
    expect(certify.code, certify.stderr).toBe(0);
    expect(certifyJson(certify).verdict).toBe("certified");
    expect(certify.stderr).toMatch(/note: the engine printed \d+ bytes in \d+ line\(s\) on stdout \(first: "import chatter/);
    const run = await timed(["run", ...plugins, "--engine", "printer", "--scenario", "parallel-tool-calls", "--trace=-"]);
    contained(run, 90);
    expect(run.code, run.stderr).toBe(0);
    const trace = parseTrace(run.stdout);
    expect(trace[0]).toMatchObject({ type: "run-start" });
    expect(trace.filter((event) => event.type === "run-end")).toHaveLength(1);
    expect(run.stdout).not.toContain("chatter");
  });

  it("an engine writing outside its sandbox (into its own plugin directory, over a file beside it) is not certified, the paths named", async () => {
    const root = join(work, "outside-plugins");
    mkdirSync(root, { recursive: true });
    cpSync(join(HOSTILE, "outside-writer"), join(root, "outside-writer"), { recursive: true });
    // Outside the package the name "ctxbench" does not resolve: the copy imports the checkout by path.
    const entry = join(root, "outside-writer", "index.ts");
    writeFileSync(entry, readFileSync(entry, "utf8").replace('from "ctxbench"', `from ${JSON.stringify(join(REPO, "harness/index.ts"))}`));
    writeFileSync(join(root, "victim.txt"), "the user's file\n");
    const run = await timed(["certify", "--plugins", root, "--engine", "outside-writer", "--checks", "LIFE-2", "--format", "json"]);
    contained(run, 90);
    expect(run.code, run.stderr).toBe(1);
    const [finding] = certifyJson(run).integrity ?? [];
    expect(finding?.kind).toBe("outside-write");
    expect(finding?.message).toContain(join(root, "outside-writer", "state.json"));
    expect(finding?.message).toContain(`${join(root, "victim.txt")} (changed)`);
    expect(existsSync(join(root, "outside-writer", "state.json"))).toBe(true);
  });

  it("compare: an engine stuck in compress is not certified and the others are compared, exit 0", async () => {
    // Three checks and no benchmark keep it short (two of spin-compress's runs call compress and
    // cost their bound each); a suite stuck in compress is the bench case below.
    const run = await timed(["compare", ...plugins, "--engine", "spin-compress", "--engine", "truncate", "--checks", "ABC-2", "ABC-5", "CMP-1", "--no-bench", "--timeout", "5000", "--format", "json"]);
    contained(run, 150);
    expect(run.code, run.stderr).toBe(0);
    const result = parseResult(run.stdout);
    expect(result.certifications.map((c) => [c.engine.name, c.verdict])).toEqual([
      ["spin-compress", "not-certified"],
      ["truncate", "certified"],
    ]);
    expect(Object.fromEntries(result.certifications[0]!.checks.map((check) => [check.id, check.outcome]))).toEqual({
      "ABC-2/usage-echo": "pass",
      "ABC-5/compression-count": "timeout",
      "CMP-1/message-shape": "timeout",
    });
    expect(result.runInfo.command).toBe(`ctxbench compare --engine spin-compress --engine truncate --plugins ${HOSTILE} --no-bench --checks ABC-2 ABC-5 CMP-1 --seed 1 --timeout 5000`);
    expect(result.benchmarks).toEqual([]);
  });

  it("compare: engines that throw in select_context and compress, or end the process in a hook, get verdicts, exit 0", async () => {
    const run = await timed(["compare", ...plugins, "--engine", "throw-select", "--engine", "exit-in-hook", "--suite", "cache", "--quick", "--timeout", "2000", "--format", "json"]);
    contained(run, 150);
    expect(run.code, run.stderr).toBe(0);
    const result = parseResult(run.stdout);
    expect(result.certifications.map((c) => [c.engine.name, c.verdict])).toEqual([
      ["throw-select", "not-certified"],
      ["exit-in-hook", "not-certified"],
    ]);
    expect(run.stderr).toMatch(/not measured: cache \(exit-in-hook\): .*exited \(code 0\)/);
  });

  it("bench: a suite stuck in compress ends when the bound strikes, exit 1 with one line naming the suite and engine", async () => {
    const run = await timed(["bench", ...plugins, "--engine", "spin-compress", "--suite", "throughput", "--quick", "--max-time", "30", "--json"]);
    contained(run, 75);
    expect(run.code).toBe(1);
    expect(lastLine(run.stderr)).toMatch(/^ctxbench: 1 suite run\(s\) could not measure an engine: throughput \(spin-compress\): still running when the run's bound \(--max-time\) struck/);
    expect(parseResult(run.stdout).benchmarks).toEqual([]);
  });

  it("bench: an engine ending the process in a hook, and one throwing in compress", async () => {
    const [exits, throws] = await Promise.all([
      timed(["bench", ...plugins, "--engine", "exit-in-hook", "--suite", "quality", "--quick", "--json"]),
      timed(["bench", ...plugins, "--engine", "throw-select", "--suite", "quality", "--quick", "--json"]),
    ]);
    contained(exits, 60);
    expect(exits.code).toBe(1);
    expect(lastLine(exits.stderr)).toMatch(/quality \(exit-in-hook\): .*exited \(code 0\)/);
    contained(throws, 60);
    expect(throws.code, throws.stderr).toBe(0);
    expect(parseResult(throws.stdout).benchmarks.map((suite) => suite.suite)).toEqual(["quality"]);
  });

  it("run: a synchronous loop, a never-settling compress and an exit in a hook end with one line and no trace; a throwing hook gives a trace", async () => {
    const cases = [
      ["spin-compress", /^ctxbench: scenario:parallel-tool-calls was still playing when the run's bound \(--max-time 20 s\) struck; ctxbench stopped the player running it; no trace was written$/],
      ["never-compress", /^ctxbench: scenario:parallel-tool-calls was still playing when the run's bound \(--max-time 20 s\) struck/],
      ["exit-in-hook", /^ctxbench: scenario:parallel-tool-calls: the player process running it exited \(code 0\).*; no trace was written$/],
    ] as const;
    const runs = await Promise.all(cases.map(([engine]) => timed(["run", ...plugins, "--engine", engine, "--scenario", "parallel-tool-calls", "--max-time", "20", "--trace", `${engine}.jsonl`])));
    runs.forEach((run, index) => {
      const [engine, message] = cases[index]!;
      contained(run, 60);
      expect(run.code, engine).toBe(1);
      expect(run.stderr.trim().split("\n").filter((line) => line.startsWith("ctxbench:"))).toHaveLength(1);
      expect(lastLine(run.stderr)).toMatch(message);
      expect(existsSync(join(work, `${engine}.jsonl`))).toBe(false);
    });
    const throwing = await timed(["run", ...plugins, "--engine", "throw-select", "--scenario", "parallel-tool-calls", "--trace=-"]);
    contained(throwing, 60);
    expect(throwing.code, throwing.stderr).toBe(0);
    const trace = parseTrace(throwing.stdout);
    expect(trace.some((event) => event.type === "request" && event.selection === "fail-open-error")).toBe(true);
    expect(trace.some((event) => event.type === "compaction" && event.outcome === "error")).toBe(true);
  });
});
