/**
 * Every result records the command that made it (runInfo.command). Pasting that line into a shell
 * must reproduce the run: same engines from the same plugin directories, same checks, seeds,
 * bounds and suites, so the same outcomes. Each case runs a command with options beyond the
 * defaults, pastes what it recorded, and compares the two results.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseResult, type ResultJson } from "../../harness/result/index.ts";
import { childEnv, ctxbench, REPO, type CliOutcome } from "./support.ts";

const PLUGINS = "test/fixtures/plugins/recall";

/** Run a recorded command line as a user pasting it would: through a shell, `ctxbench` being this checkout's bin. */
function paste(line: string, extra: string): Promise<CliOutcome> {
  expect(line.startsWith("ctxbench ")).toBe(true);
  const script = `"${process.execPath}" "${join(REPO, "bin/ctxbench.mjs")}" ${line.slice("ctxbench ".length)} ${extra}`;
  return new Promise((resolve, reject) => {
    execFile("sh", ["-c", script], { cwd: REPO, env: childEnv(), timeout: 240_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== "number") return reject(error);
      resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
    });
  });
}

/** What a rerun must give again: each engine's verdict and outcome per check, and which suites measured which engines. */
function findings(result: ResultJson) {
  return {
    certifications: result.certifications.map((c) => ({ engine: c.engine, verdict: c.verdict, outcomes: Object.fromEntries(c.checks.map((check) => [check.id, check.outcome])) })),
    benchmarks: result.benchmarks.map((b) => ({ suite: b.suite, engines: "engines" in b ? b.engines.map((e: { engine: string }) => e.engine) : [] })),
  };
}

async function recordedAndPasted(args: string[], json: string): Promise<{ first: ResultJson; again: ResultJson }> {
  const run = await ctxbench([...args, ...json.split(" ")], { timeoutMs: 240_000 });
  expect(run.code, run.stderr).toBe(0);
  const first = parseResult(run.stdout);
  const rerun = await paste(first.runInfo.command, json);
  expect(rerun.code, rerun.stderr).toBe(0);
  return { first, again: parseResult(rerun.stdout) };
}

describe("the recorded command reproduces the run (as processes, with --plugins)", () => {
  // THR-4 reads one seeded scenario (and a probe), so the seed is reproduced too; CMP-1 played all ten, for each engine, twice.
  it("compare: plugin directory, engines, checks, scenarios, seed, no benchmarks and a non-default --timeout", async () => {
    const { first, again } = await recordedAndPasted(
      ["compare", "--plugins", PLUGINS, "--engine", "archivist", "--engine", "truncate", "--checks", "ABC-2", "THR-4", "--scenarios", "compression-timeout", "--no-bench", "--seed", "2", "--timeout", "15000", "--quiet"],
      "--format json",
    );
    expect(first.runInfo.command).toBe(`ctxbench compare --engine archivist --engine truncate --plugins ${PLUGINS} --no-bench --checks ABC-2 THR-4 --scenarios compression-timeout --seed 2 --timeout 15000`);
    expect(again.runInfo.command).toBe(first.runInfo.command);
    expect(findings(again)).toEqual(findings(first));
    expect(findings(first).certifications.map((c) => c.engine.name)).toEqual(["archivist", "truncate"]);
  }, 480_000);

  it("bench: plugin directory, suite, seed and a non-default --max-time", async () => {
    const { first, again } = await recordedAndPasted(["bench", "--plugins", PLUGINS, "--engine", "archivist", "--suite", "cache", "--quick", "--seed", "3", "--max-time", "200", "--quiet"], "--json");
    expect(first.runInfo.command).toBe(`ctxbench bench --suite cache --engine archivist --plugins ${PLUGINS} --seed 3 --quick --max-time 200`);
    expect(again.runInfo.command).toBe(first.runInfo.command);
    expect(findings(again)).toEqual(findings(first));
    expect(findings(first).benchmarks).toEqual([{ suite: "cache", engines: ["archivist"] }]);
  }, 480_000);

  it("certify: plugin directory, checks, scenarios, seed and a non-default --timeout", async () => {
    const { first, again } = await recordedAndPasted(
      ["certify", "--plugins", PLUGINS, "--engine", "archivist", "--checks", "ABC", "CMP-1", "--scenarios", "parallel-tool-calls", "--seed", "4", "--timeout", "15000"],
      "--format json",
    );
    expect(first.runInfo.command).toBe(`ctxbench certify --engine archivist --plugins ${PLUGINS} --seed 4 --checks ABC CMP-1 --scenarios parallel-tool-calls --timeout 15000`);
    expect(findings(again)).toEqual(findings(first));
    // CMP-1 judged the host's passes of that one scenario, and the pasted command judged the same ones.
    const shape = (result: ResultJson) => result.certifications[0]!.checks.find((check) => check.id === "CMP-1/message-shape")!.message;
    expect(shape(first)).toMatch(/[1-9]\d* host passes/);
    expect(shape(again)).toBe(shape(first));
  }, 480_000);
});
