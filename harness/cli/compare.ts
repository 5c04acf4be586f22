import type { Argv, CommandModule } from "yargs";
import { availableSuites } from "../bench/registry.ts";
import { reporterFor, reportFormats } from "../../reports/index.ts";
import type { BenchSuiteName } from "../result/index.ts";
import { runComparison } from "./comparison.ts";
import { UsageError } from "../util/errors.ts";
import { wantsColor, type CliIo } from "./io.ts";
import { createProgress } from "./progress.ts";

interface CompareArgs {
  engine?: string[] | undefined;
  plugins?: string[] | undefined;
  suite?: string[] | undefined;
  bench: boolean;
  certify: boolean;
  seed: number;
  quick: boolean;
  quiet: boolean;
  format: string;
  out?: string | undefined;
  python?: string | undefined;
  "hermes-agent"?: string | undefined;
}

/** `ctxbench compare`: engines side by side, compliance matrix and performance tables. */
export function compareCommand(io: CliIo): CommandModule<object, any> {
  return {
    command: "compare",
    describe: "Certify and benchmark several engines and show them side by side",
    builder: (yargs: Argv) =>
      yargs
        .option("engine", { type: "string", array: true, describe: "Engine to compare (repeatable; default: every bundled engine)" })
        .option("plugins", { type: "string", array: true, describe: "Another directory holding plugin directories (repeatable)" })
        .option("suite", { type: "string", array: true, choices: availableSuites(), describe: "Benchmark suite (repeatable; default: all)" })
        .option("bench", { type: "boolean", default: true, describe: "Run the benchmarks (--no-bench: only the compliance matrix)" })
        .option("certify", { type: "boolean", default: true, describe: "Certify each engine (--no-certify: only the performance tables)" })
        .option("seed", { type: "number", default: 1, describe: "Seed of every scenario and transcript" })
        .option("quick", { type: "boolean", default: false, describe: "Smaller benchmark inputs and fewer samples" })
        .option("quiet", { type: "boolean", default: false, describe: "No progress lines" })
        .option("format", { choices: reportFormats({ pages: true }), default: "terminal", describe: "What to print on stdout" })
        .option("out", { type: "string", describe: "Also write every report format (HTML with charts included) into this directory" })
        .option("python", { type: "string", describe: "The Python interpreter for Python plugins (default python3 on PATH)" })
        .option("hermes-agent", { type: "string", describe: "A hermes-agent checkout: its plugins and its built-in compressor become engines" })
        .example("$0 compare", "Every bundled engine: certification matrix and benchmarks")
        .example("$0 compare --plugins ./plugins --engine mine --engine compressor --out report", "Your engine beside the default, with an HTML report")
        .epilogue("Compare informs and never fails on a verdict: use `ctxbench certify` for the gate."),
    handler: async (argv) => {
      const args = argv as unknown as CompareArgs;
      if (!Number.isInteger(args.seed)) throw new UsageError(`--seed must be an integer, got ${args.seed}`);
      if (!args.bench && !args.certify) throw new UsageError("--no-bench and --no-certify together leave nothing to compare");
      const suites = !args.bench ? [] : (args.suite as BenchSuiteName[] | undefined);
      const result = await runComparison(io, {
        engines: args.engine,
        pluginDirs: args.plugins ?? [],
        suites,
        certify: args.certify,
        seed: args.seed,
        quick: args.quick,
        out: args.out ?? null,
        progress: createProgress(io, { quiet: args.quiet }),
        runtime: { ...(args.python !== undefined ? { python: args.python } : {}), ...(args["hermes-agent"] !== undefined ? { hermesAgent: args["hermes-agent"] } : {}) },
      });
      io.stdout(reporterFor(args.format).render(result, { color: wantsColor(io), title: "ctxbench: engines compared" }));
    },
  };
}
