import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Argv, CommandModule } from "yargs";
import { certify } from "../conformance/certification.ts";
import { engineUnderTest, runEngineChecks } from "../conformance/run-certification.ts";
import { runChecksIsolated, type SettledSources } from "../conformance/isolated-runner.ts";
import type { EvaluatedCheck } from "../conformance/types.ts";
import { CHECKS, selectChecks } from "../conformance/checks/index.ts";
import { defaultExpectationsPath, readExpectations, updatedExpectations, writeExpectations, type Expectations } from "../conformance/expectations.ts";
import { writeRepros } from "../conformance/repro.ts";
import { DEFAULT_RUN_TIMEOUT_MS } from "../conformance/runner.ts";
import { parseShard, shardChecks } from "../conformance/shard.ts";
import { checkSetDigest } from "../conformance/verdict.ts";
import { isUnexpected } from "../conformance/expectations.ts";
import { publishResult, reportFormats } from "../../reports/index.ts";
import { collectRunInfo, RESULT_SCHEMA_VERSION, type ResultJson } from "../result/index.ts";
import { engineSelectionArgv, loadSelectedEngine, withEngineSelection, type EngineSelectionArgs } from "./engine-options.ts";
import { NegativeVerdict, UsageError } from "../util/errors.ts";
import { wantsColor, type CliIo } from "./io.ts";
import { createProgress } from "./progress.ts";
import { PACKAGE_ROOT } from "../util/package-root.ts";


interface CertifyArgs extends EngineSelectionArgs {
  checks?: string[] | undefined;
  expectations?: string | undefined;
  "update-expectations": boolean;
  seed: number;
  format: string;
  out?: string | undefined;
  shard?: string | undefined;
  timeout: number;
  isolate: boolean;
}

/** `ctxbench certify`: run the conformance checks against one engine and give a verdict. */
export function certifyCommand(io: CliIo): CommandModule<object, CertifyArgs> {
  return {
    command: "certify",
    describe: "Run the conformance checks against one engine: exit 0 certified, 1 not certified",
    builder: (yargs: Argv) =>
      withEngineSelection(yargs)
        .option("checks", { type: "string", array: true, describe: "Check ids, rules or prefixes to run (e.g. CMP-2, CMP-2/orphaned-result, THR); default all" })
        .option("expectations", { type: "string", describe: "Expectations file (YAML: check id -> {expected, reason, link}); default <plugin dir>/expectations.yaml if present" })
        .option("update-expectations", { type: "boolean", default: false, describe: "Rewrite the expectations file from this run's outcomes" })
        .option("seed", { type: "number", default: 1, describe: "Seed of every scenario and probe" })
        .option("format", { choices: reportFormats(), default: "terminal", describe: "What to print on stdout (json: the result.json document itself)" })
        .option("out", { type: "string", describe: "Write every format (result.json, junit.xml, report.md, …) and the repro files into this directory (without it, repro files of failures go to ./ctxbench-repro)" })
        .option("shard", { type: "string", describe: "Run shard i of n (i/n); join the shards' result.json files with ctxbench merge" })
        .option("timeout", { type: "number", default: DEFAULT_RUN_TIMEOUT_MS, describe: "Limit of one scenario or probe run in ms; its checks time out with it" })
        .option("isolate", {
          type: "boolean",
          default: true,
          describe: "Run the engine in a worker process, so one that never returns control (a synchronous loop) times out its checks instead of hanging certify; --no-isolate runs it in this process (for a debugger)",
        })
        .example("ctxbench certify --engine lcm", "certify a bundled engine")
        .example("ctxbench certify --plugins ./plugins --engine mine --out results", "certify your plugin, writing JUnit, Markdown and repro files")
        .example("ctxbench certify --engine mine --checks CMP-2 --seed 7", "replay one rule's checks with another seed") as unknown as Argv<CertifyArgs>,
    handler: async (args) => {
      if (!Number.isSafeInteger(args.seed)) throw new UsageError(`--seed must be an integer, got ${args.seed}`);
      if (!(args.timeout > 0)) throw new UsageError(`--timeout must be a positive number of ms, got ${args.timeout}`);
      const shard = args.shard === undefined ? null : parseShard(args.shard);
      if (args.shard !== undefined && shard === null) throw new UsageError(`--shard must be i/n with 1 <= i <= n, got "${args.shard}"`);
      const selectors = args.checks ?? [];
      let checks = selectChecks(selectors);
      const unmatched = selectors.filter((selector) => selectChecks([selector]).length === 0);
      if (unmatched.length > 0) throw new UsageError(`no check matches ${unmatched.map((s) => `"${s}"`).join(", ")}; see the check ids in harness/conformance/checks`);
      const digest = checkSetDigest(checks);
      if (shard) {
        checks = shardChecks(checks, shard);
        if (checks.length === 0) throw new UsageError(`shard ${shard.index}/${shard.count} holds no checks: the selection splits into fewer than ${shard.count} shards`);
      }

      const loaded = await loadSelectedEngine(io, args, { strict: true });
      const expectationsPath = args.expectations !== undefined ? resolve(io.cwd, args.expectations) : defaultExpectationsPath(loaded.directory);
      let expectations: Expectations = new Map();
      if (expectationsPath !== null && (existsSync(expectationsPath) || !args["update-expectations"])) {
        if (!existsSync(expectationsPath)) throw new UsageError(`expectations file ${expectationsPath} does not exist`);
        const read = readExpectations(expectationsPath, CHECKS.map((check) => check.id));
        expectations = read.expectations;
        for (const warning of read.warnings) io.stderr(`warning: ${warning}\n`);
      }

      const progress = createProgress(io);
      let done = 0;
      const onResult = (result: EvaluatedCheck) => progress.step(`${++done}/${checks.length} ${result.id}: ${result.outcome}`);
      const engine = await engineUnderTest(loaded);
      const results = args.isolate
        ? await runChecksIsolated(checks, {
            timeoutMs: args.timeout,
            spawnWorker: (ids, settled) => spawnCheckWorker(io, args, ids, settled),
            onResult,
            onWorkerOutput: (text) => io.stderr(text), // to stderr, so stdout stays the report
          })
        : (await runEngineChecks(loaded, { checks, seed: args.seed, timeoutMs: args.timeout, onResult })).results;

      if (args["update-expectations"]) {
        const target = expectationsPath ?? join(loaded.directory ?? io.cwd, "expectations.yaml");
        const entries = updatedExpectations(results, expectations);
        writeExpectations(target, entries, loaded.name);
        expectations = new Map(Object.entries(entries));
        io.stderr(`wrote ${Object.keys(entries).length} expectation(s) to ${target}\n`);
      }

      const selection = engineSelection(loaded.name, args);
      const certification = certify(engine, results, args.seed, expectations, { shard, seeds: [args.seed], checkSetDigest: digest }, selection);
      const runInfo = collectRunInfo({ seed: args.seed, command: commandLine(selection, args), engines: [certification.engine] });
      const result: ResultJson = { schemaVersion: RESULT_SCHEMA_VERSION, runInfo, certifications: [certification], benchmarks: [] };

      const failures = results.filter((r) => r.outcome !== "pass" && isUnexpected(r.outcome, expectations.get(r.id)?.expected ?? null));
      const reproDir = args.out !== undefined ? join(resolve(io.cwd, args.out), "repro") : join(io.cwd, "ctxbench-repro");
      const repros = writeRepros(reproDir, failures, selection, args.seed);
      await publishResult(result, io, {
        format: args.format,
        color: wantsColor(io),
        out: args.out === undefined ? null : resolve(io.cwd, args.out),
        title: `ctxbench certify: ${loaded.name}`,
        environment: true,
      });
      if (repros.length > 0) io.stderr(`repro files for ${repros.length} unexpected outcome(s) in ${reproDir}\n`);
      if (certification.verdict !== "certified") {
        throw new NegativeVerdict(`${loaded.name} is not certified: ${certification.summary.unexpected} unexpected outcome(s) (${failures.filter((f) => f.level === "MUST").map((f) => f.id).join(", ")})`);
      }
    },
  };
}

/** The engine selection as repro commands repeat it: the name plus where it was found. */
function engineSelection(engine: string, args: CertifyArgs): string {
  const quote = (text: string) => (/^[\w./@:-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`);
  const parts = [quote(args.engine?.startsWith("bundled:") ? args.engine : engine)];
  for (const dir of args.plugins ?? []) parts.push(`--plugins ${quote(dir)}`);
  if (args["plugin-module"] !== undefined) parts.push(`--plugin-module ${quote(args["plugin-module"])}`);
  if (args.config !== undefined) parts.push(`--config ${quote(args.config)}`);
  if (args.python !== undefined) parts.push(`--python ${quote(args.python)}`);
  if (args["hermes-agent"] !== undefined) parts.push(`--hermes-agent ${quote(args["hermes-agent"])}`);
  return parts.join(" ");
}

/** The command line recorded in runInfo: deterministic, and enough to rerun this certification. */
function commandLine(selection: string, args: CertifyArgs): string {
  const parts = ["ctxbench certify", `--engine ${selection}`, `--seed ${args.seed}`];
  if (args.checks && args.checks.length > 0) parts.push(`--checks ${args.checks.join(" ")}`);
  if (args.shard) parts.push(`--shard ${args.shard}`);
  return parts.join(" ");
}

// The same command the user ran: compiled JavaScript in an installed package, the sources in a checkout.
const CLI_ENTRY = join(PACKAGE_ROOT, "bin/ctxbench.mjs");

/** A `ctxbench check-worker` child for these checks, selecting the engine exactly as this run did. */
function spawnCheckWorker(io: CliIo, args: CertifyArgs, checkIds: string[], settled: SettledSources): ChildProcess {
  const argv = [CLI_ENTRY, "check-worker", "--seed", String(args.seed), "--timeout", String(args.timeout), "--settled", JSON.stringify(settled)];
  argv.push(...engineSelectionArgv(args), "--check-id", ...checkIds);
  return spawn(process.execPath, argv, { cwd: io.cwd, env: io.env, stdio: ["ignore", "pipe", "pipe"] });
}
