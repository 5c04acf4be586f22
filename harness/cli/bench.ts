import type { Argv, CommandModule, InferredOptionTypes } from "yargs";
import { availableSuites } from "../bench/suite-names.ts";
import { appliedBounds, defaultBounds } from "../pipeline/bounds.ts";
import { engineNames } from "../pipeline/engine-request.ts";
import { selectEngine } from "../plugins/select.ts";
import type { EngineSpec } from "../plugins/spec.ts";
import type { ResultJson } from "../result/index.ts";
import { NegativeVerdict } from "../util/errors.ts";
import { baselineOptions, prepareBaseline, saveAndGate, type BaselineRequest } from "./baseline-gate.ts";
import { wantsColor, type CliIo } from "./io.ts";
import { prepareOutputDirectory, prepareOutputFile, removeCreated } from "./output-paths.ts";
import { boundOptions, enginesSelection, maxTimeOf, pythonRuntimeOf, quietOption, seedOf, seedOption } from "./options.ts";
import { createProgress } from "./progress.ts";
import { parsePath } from "./option-values.ts";

/** A function, so that `--suite` offers the suites registered when the command is built. */
const benchOptions = () => ({
  ...enginesSelection,
  ...seedOption,
  ...quietOption,
  "max-time": boundOptions["max-time"],
  isolate: boundOptions.isolate,
  suite: { array: true, choices: availableSuites(), describe: "Suite to run (repeatable; default: all)" },
  json: { type: "boolean", default: false, describe: "Print the result JSON instead of tables" },
  quick: { type: "boolean", default: false, describe: "Smaller inputs and fewer samples (a quick look, not a figure to publish)" },
  out: { type: "string", coerce: (raw: unknown) => parsePath("--out", raw), describe: "Also write every report format into this directory" },
  ...baselineOptions,
}) as const;

type BenchArgs = InferredOptionTypes<ReturnType<typeof benchOptions>>;

/** `ctxbench bench`: run benchmark suites on engines (each in its own player) and print or save the result JSON. */
export function benchCommand(io: CliIo): CommandModule<object, BenchArgs> {
  return {
    command: "bench",
    describe: "Benchmark engines: request overhead, prompt-cache stability, compress() throughput, recall quality, the store",
    builder: (yargs: Argv) =>
      yargs
        .options(benchOptions())
        .example("$0 bench --suite overhead", "The per-request cost of the host's identity check and request assembly")
        .example("$0 bench --suite throughput --engine compressor --json", "compress() throughput as JSON")
        .example("$0 bench --save-baseline main && $0 bench --baseline main", "Gate on regressions")
        .epilogue("Each engine is measured in its own player process, beside the suite's reference variants measured there too; ratios between variants measured in one process are the numbers to compare across machines. An engine a suite could not measure (it hung or failed) makes the command exit 1."),
    handler: (args) => bench(io, args),
  };
}

async function bench(io: CliIo, args: BenchArgs): Promise<void> {
  // Everything the run writes is checked (and made) before a suite runs: a bad --out or baseline name is one line, not a lost run.
  const baseline = prepareBaseline(io, args);
  const out = args.out === undefined ? null : prepareOutputDirectory("--out", args.out, io.cwd);
  try {
    await benchInto(io, args, baseline, out?.path ?? null);
  } catch (error) {
    if (!(error instanceof NegativeVerdict)) removeCreated([...baseline.created, ...(out?.created ?? [])]);
    throw error;
  }
}

async function benchInto(io: CliIo, args: BenchArgs, baseline: BaselineRequest, outDir: string | null): Promise<void> {
  const seed = seedOf(args.seed) ?? 1;
  const pluginDirs = args.plugins ?? [];
  const suites = args.suite && args.suite.length > 0 ? [...new Set(args.suite)] : availableSuites();
  const runtime = pythonRuntimeOf(args);
  const names = await engineNames(io.cwd, args.engine, pluginDirs, runtime.hermesAgent);
  const specs: EngineSpec[] = [];
  for (const name of names) {
    const selection = await selectEngine({ cwd: io.cwd, name, pluginDirs, ...runtime });
    for (const notice of selection.notices) io.stderr(`note: ${notice}\n`);
    specs.push(selection.spec);
  }
  // The suites, host and reporters load once every engine is found: a refused one costs only discovery.
  const [{ benchStage }, { outputSummary }, { runShapingFlags, shellLine }, { publishResult }, { collectRunInfo, RESULT_SCHEMA_VERSION }] = await Promise.all([
    import("../pipeline/bench.ts"),
    import("../pipeline/assemble.ts"),
    import("../pipeline/plan.ts"),
    import("../../reports/index.ts"),
    import("../result/index.ts"),
  ]);
  const progress = createProgress(io, { quiet: args.quiet });
  const bounds = defaultBounds({ maxTimeMs: maxTimeOf(args["max-time"]) });
  const run = await benchStage({
    engines: specs,
    suites,
    seed,
    quick: args.quick,
    bounds,
    isolate: args.isolate,
    env: io.env,
    onSuite: (suite, engine) => progress.step(`suite ${suite}${engine === null ? "" : ` (${engine})`}`),
  });
  for (const notice of run.engines.flatMap((engine) => engine.notices)) io.stderr(`note: ${notice}\n`);
  const printed = outputSummary(run.output);
  if (printed !== null) io.stderr(`note: ${printed}\n`);
  const words = ["ctxbench", "bench", ...suites.flatMap((s) => ["--suite", s]), ...names.flatMap((name) => ["--engine", name]), ...pluginDirs.flatMap((dir) => ["--plugins", dir]), ...(runtime.python !== undefined ? ["--python", runtime.python] : []), ...(runtime.hermesAgent !== undefined ? ["--hermes-agent", runtime.hermesAgent] : []), "--seed", String(seed), ...(args.quick ? ["--quick"] : []), ...(args.baseline !== undefined ? ["--baseline", args.baseline] : []), ...runShapingFlags({ bounds: { maxTimeMs: maxTimeOf(args["max-time"]) }, isolate: args.isolate })];
  const result: ResultJson = {
    schemaVersion: RESULT_SCHEMA_VERSION,
    runInfo: collectRunInfo({ seed, command: shellLine(words), engines: run.engines.map((engine) => ({ name: engine.name, version: engine.version ?? "unversioned" })), isolation: args.isolate ? "players" : "in-process", bounds: appliedBounds(bounds, { runs: false, suites: true }) }),
    certifications: [],
    benchmarks: run.benchmarks,
  };
  const written = await publishResult(result, io, {
    format: args.json ? "json" : "terminal",
    color: wantsColor(io),
    out: outDir,
    title: "ctxbench benchmarks",
    environment: false,
  });
  for (const path of written) progress.step(`wrote ${path}`);
  if (run.failures.length > 0) throw new NegativeVerdict(`${run.failures.length} suite run(s) could not measure an engine: ${run.failures.join("; ")}`);
  saveAndGate(io, args, baseline, run.figures);
}
