import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { badInputRows } from "../../harness/cli/bad-input-rows.test-support.ts";
import { engineSource } from "../../harness/plugins/test-support.ts";
import { CONTRACT_MODULE, ctxbench as runCli } from "./support.ts";

/**
 * The fault suite for inputs, as processes: one row per error class and command family of
 * harness/cli/bad-input-rows.test-support.ts, through bin/ctxbench.mjs, so the exit status, the
 * real stderr and stdout and the working directory are the process's own. Every row (these too)
 * also runs in-process in harness/cli/bad-input.test.ts.
 */

const work = mkdtempSync(join(tmpdir(), "ctxbench-e2e-bad-input-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let counter = 0;

/** The rows run as processes: each a different error class, parser or command. */
const AS_PROCESSES = new Set([
  "report: a blank result file argument (it read the working directory: EISDIR)", // a blank positional
  "certify: --python naming no interpreter, for a TypeScript engine too (it was silently ignored)", // UsageError from a command
  "run: a content part nested 100,000 levels deep", // a stack-depth limit, in a real process's stack
  'run: a "__proto__" member where the format has none', // ScenarioFormatError
  "run: an engine whose name getter throws", // a plugin that fails to load
  "scenarios import: session tables older than any schema_version table", // ImportError
  "scenarios generate: options whose product is gigabytes of JSON", // a refusal before generating
  "init: a package.json that is JSON but not an object", // init's own refusal
  "report: a failing check marked expected with no expectation listed (a tampered result)", // ResultError
  "merge: shards of different seeds", // MergeError
  "merge: a result file of 300 MiB", // the size limit on reading a file
  "engines list: --plugins that is a file", // engines' refusal
  "main: --out that is a path under a file", // output paths, before any engine runs
  "run: --trace under /proc/self/x", // output files
  "bench: --seed 1.5", // an option value parser (yargs coerce)
  "compare: --timeout 1e10 (Node would fire the timer after 1 ms)",
  "certify: --expectations that is a YAML alias bomb, refused before any engine runs", // ExpectationsError
  "compare: a plugin's expectations.yaml that is not YAML, refused before any engine runs",
  'init: --dir "" (it meant the working directory, silently)', // blank paths
  "main: a --plugins directory that does not exist leaves no report directory behind",
  "checks list: an unknown option", // yargs's strict-mode refusal
  "bench: --save-baseline with a path in its name, refused before the suites run",
]);
const ROWS = badInputRows(work, pathToFileURL(CONTRACT_MODULE).href).filter((row) => AS_PROCESSES.has(row.label));

it("every row named to run as a process exists", () => {
  expect(ROWS.map((row) => row.label).sort()).toEqual([...AS_PROCESSES].sort());
});

/** A working directory of the row's own, so rows can run side by side and each sees only what it wrote. */
function rowDirectory(): string {
  const dir = join(work, `${counter++}-cwd`);
  mkdirSync(dir);
  return dir;
}

// Each row is a process that mostly starts Node and loads a command: rows run a few at a time
// (vitest's maxConcurrency), so one row's start-up overlaps another's instead of queueing behind it.
describe.concurrent("bad inputs are exit 2, one line, nothing written (as processes)", () => {
  it.for(ROWS.map((row) => [row.label, row] as const))("%s", async ([, row], { task, expect }) => {
    const before = new Set(readdirSync(work));
    const cwd = rowDirectory();
    const args = row.args();
    const started = performance.now();
    const result = await runCli(args, { cwd, timeoutMs: 90_000 });
    const lineCount = result.stderr.trimEnd().split("\n").length;
    // One row of the figures for these: each of them is also counted, by command, in-process.
    task.meta.fault = {
      suite: "bad input as a process (one per error class)",
      outcome: `exit ${result.code}, ${lineCount} line${lineCount === 1 ? "" : "s"}`,
      seconds: (performance.now() - started) / 1000,
    };
    expect(result.stderr).not.toMatch(/internal error|bug in ctxbench/);
    expect(result.code, result.stderr).toBe(2);
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines, result.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^ctxbench: /);
    expect(lines[0]).toMatch(row.stderr);
    expect(result.stdout).toBe("");
    for (const path of row.absent ?? []) expect(existsSync(join(cwd, path)), path).toBe(false);
    expect(readdirSync(cwd), "written into the working directory").toEqual([]);
    const created = readdirSync(work).filter((name) => !before.has(name) && !/^\d+-/.test(name));
    expect(created).toEqual([]);
  });
});

/** A plugin root holding one plain engine ("plain") with `expectations.yaml` beside it holding `text`. */
function pluginWithExpectations(text: string): string {
  const root = join(work, `${counter++}-plugins`);
  mkdirSync(join(root, "plain"), { recursive: true });
  writeFileSync(join(root, "plain/plugin.yaml"), "name: plain\ndescription: a plain engine\nversion: 0.1.0\n");
  writeFileSync(join(root, "plain/index.mjs"), engineSource("plain", pathToFileURL(CONTRACT_MODULE).href));
  writeFileSync(join(root, "plain/expectations.yaml"), text);
  return root;
}

describe("commands that read no expectations are not stopped by a malformed one (as processes)", () => {
  it("bench and run play a plugin whose expectations.yaml is not YAML, exit 0", { timeout: 180_000 }, async () => {
    const plugins = pluginWithExpectations("ABC-2/usage-echo: {expected: fail\n");
    const cwd = rowDirectory();
    const [bench, run] = await Promise.all([
      runCli(["bench", "--plugins", plugins, "--engine", "plain", "--suite", "quality", "--quick", "--json"], { cwd, timeoutMs: 170_000 }),
      runCli(["run", "--plugins", plugins, "--engine", "plain", "--scenario", "basic", "--trace", "plain.jsonl"], { cwd, timeoutMs: 170_000 }),
    ]);
    expect(bench.code, bench.stderr).toBe(0);
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(cwd, "plain.jsonl"))).toBe(true);
  });
});
