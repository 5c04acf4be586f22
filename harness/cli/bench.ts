import { cpus } from "node:os";
import { resolve } from "node:path";
import type { Argv, CommandModule } from "yargs";
import { findRegressions, loadBaseline, saveBaseline } from "../bench/baseline.ts";
import { availableSuites } from "../bench/registry.ts";
import { runBenchPlan } from "../bench/run-bench.ts";
import { publishResult } from "../../reports/index.ts";
import { collectRunInfo, RESULT_SCHEMA_VERSION, type BenchSuiteName, type ResultJson } from "../result/index.ts";
import { benchEngineNames, loadBenchEngines } from "./bench-engines.ts";
import { NegativeVerdict, UsageError } from "../util/errors.ts";
import { wantsColor, type CliIo } from "./io.ts";
import { createProgress } from "./progress.ts";

interface BenchArgs {
  suite?: string[] | undefined;
  engine?: string[] | undefined;
  plugins?: string[] | undefined;
  seed: number;
  json: boolean;
  quick: boolean;
  quiet: boolean;
  out?: string | undefined;
  "save-baseline"?: string | undefined;
  baseline?: string | undefined;
  python?: string | undefined;
  "hermes-agent"?: string | undefined;
}

/** `ctxbench bench`: run benchmark suites on engines and print or save the result JSON. */
export function benchCommand(io: CliIo): CommandModule<object, any> {
  const suites = availableSuites();
  return {
    command: "bench",
    describe: "Benchmark engines: request overhead, prompt-cache stability, compress() throughput, recall quality, the store",
    builder: (yargs: Argv) =>
      yargs
        .option("suite", { type: "string", array: true, choices: suites, describe: "Suite to run (repeatable; default: all)" })
        .option("engine", { type: "string", array: true, describe: "Engine to benchmark (repeatable; default: every bundled engine)" })
        .option("plugins", { type: "string", array: true, describe: "Another directory holding plugin directories (repeatable)" })
        .option("python", { type: "string", describe: "The Python interpreter for Python plugins (default python3 on PATH)" })
        .option("hermes-agent", { type: "string", describe: "A hermes-agent checkout: its plugins and its built-in compressor become engines" })
        .option("seed", { type: "number", default: 1, describe: "Seed of the generated transcripts" })
        .option("json", { type: "boolean", default: false, describe: "Print the result JSON instead of tables" })
        .option("quick", { type: "boolean", default: false, describe: "Smaller inputs and fewer samples (a quick look, not a figure to publish)" })
        .option("quiet", { type: "boolean", default: false, describe: "No progress lines (also quiet when CI=true or not on a terminal)" })
        .option("out", { type: "string", describe: "Also write every report format into this directory" })
        .option("save-baseline", { type: "string", describe: "Save the figures as a named baseline (.ctxbench/baselines/NAME.json)" })
        .option("baseline", { type: "string", describe: "Compare with a saved baseline; exit 1 on a regression beyond max(10 %, the figures' uncertainty)" })
        .example("$0 bench --suite overhead", "The per-request cost of the host's identity check and request assembly")
        .example("$0 bench --suite throughput --engine compressor --json", "compress() throughput as JSON")
        .example("$0 bench --save-baseline main && $0 bench --baseline main", "Gate on regressions")
        .epilogue("Figures are medians of interleaved samples measured in one process; ratios between variants are the numbers to compare across machines."),
    handler: (argv) => bench(io, argv as unknown as BenchArgs),
  };
}

async function bench(io: CliIo, args: BenchArgs): Promise<void> {
  if (!Number.isInteger(args.seed)) throw new UsageError(`--seed must be an integer, got ${args.seed}`);
  const pluginDirs = args.plugins ?? [];
  const suites = (args.suite && args.suite.length > 0 ? [...new Set(args.suite)] : availableSuites()) as BenchSuiteName[];
  const runtime = { ...(args.python !== undefined ? { python: args.python } : {}), ...(args["hermes-agent"] !== undefined ? { hermesAgent: args["hermes-agent"] } : {}) };
  const engines = await loadBenchEngines(io, await benchEngineNames(io, args.engine, pluginDirs), pluginDirs, runtime);
  const baseline = args.baseline !== undefined ? loadBaseline(io.cwd, args.baseline) : null;
  const progress = createProgress(io, { quiet: args.quiet });

  const run = await runBenchPlan({
    suites,
    engines,
    seed: args.seed,
    quick: args.quick,
    onSuiteStart: (suite, index, total) => progress.step(`suite ${index + 1}/${total}: ${suite} (${engines.map((e) => e.name).join(", ")})`),
  });
  const result: ResultJson = {
    schemaVersion: RESULT_SCHEMA_VERSION,
    runInfo: collectRunInfo({
      seed: args.seed,
      command: ["ctxbench", "bench", ...suites.flatMap((s) => ["--suite", s]), ...engines.flatMap((e) => ["--engine", e.name]), "--seed", String(args.seed), ...(args.quick ? ["--quick"] : [])].join(" "),
      engines: engines.map((e) => ({ name: e.name, version: e.version ?? "unknown" })),
    }),
    certifications: [],
    benchmarks: run.benchmarks,
  };

  const written = await publishResult(result, io, {
    format: args.json ? "json" : "terminal",
    color: wantsColor(io),
    out: args.out === undefined ? null : resolve(io.cwd, args.out),
    title: "ctxbench benchmarks",
    environment: false,
  });
  for (const path of written) progress.step(`wrote ${path}`);
  if (args["save-baseline"] !== undefined) {
    const machine = `${cpus()[0]?.model.trim() ?? "unknown"} ×${cpus().length}, node ${process.version}`;
    const path = saveBaseline(io.cwd, args["save-baseline"], { schemaVersion: 1, machine, figures: run.figures });
    io.stderr(`saved baseline "${args["save-baseline"]}" to ${path}\n`);
  }
  if (baseline !== null) {
    const regressions = findRegressions(baseline, run.figures);
    if (regressions.length > 0) {
      const lines = regressions.map((r) => `  ${r.key}: ${r.baseline.toPrecision(4)} → ${r.current.toPrecision(4)} (${((r.worseBy - 1) * 100).toFixed(1)} % worse; allowed ${((r.allowed - 1) * 100).toFixed(1)} %)`);
      throw new NegativeVerdict(`${regressions.length} regression(s) against baseline "${args.baseline}":\n${lines.join("\n")}`);
    }
    io.stderr(`no regression against baseline "${args.baseline}" (${Object.keys(run.figures).length} figures compared)\n`);
  }
}
