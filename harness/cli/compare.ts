import { resolve } from "node:path";
import type { Argv, CommandModule, InferredOptionTypes } from "yargs";
import { availableSuites } from "../bench/suite-names.ts";
import { reportFormats } from "../../reports/formats.ts";
import { UsageError } from "../util/errors.ts";
import { wantsColor, type CliIo } from "./io.ts";
import { prepareOutputDirectory, removeCreated } from "./output-paths.ts";
import { boundOptions, boundsOf, checksOption, enginesSelection, pythonRuntimeOf, quietOption, scenariosOption, seedOf, seedOption } from "./options.ts";
import { createProgress } from "./progress.ts";
import { parsePath } from "./option-values.ts";

/** A function, so that `--format` offers the reporters registered when the command is built. */
const compareOptions = () => ({
  ...enginesSelection,
  ...seedOption,
  ...checksOption,
  ...scenariosOption,
  ...boundOptions,
  ...quietOption,
  suite: { array: true, choices: availableSuites(), describe: "Benchmark suite (repeatable; default: all)" },
  bench: { type: "boolean", default: true, describe: "Run the benchmarks (--no-bench: only the compliance matrix)" },
  certify: { type: "boolean", default: true, describe: "Certify each engine (--no-certify: only the performance tables)" },
  quick: { type: "boolean", default: false, describe: "Smaller benchmark inputs and fewer samples" },
  format: { choices: reportFormats({ pages: true }), default: "terminal", describe: "What to print on stdout" },
  out: { type: "string", coerce: (raw: unknown) => parsePath("--out", raw), describe: "Also write every report format (HTML with charts included) into this directory" },
}) as const;

type CompareArgs = InferredOptionTypes<ReturnType<typeof compareOptions>>;

/** `ctxbench compare`: engines side by side, compliance matrix and performance tables. */
export function compareCommand(io: CliIo): CommandModule<object, CompareArgs> {
  return {
    command: "compare",
    describe: "Certify and benchmark several engines and show them side by side",
    builder: (yargs: Argv) =>
      yargs
        .options(compareOptions())
        .example("$0 compare", "Every bundled engine: certification matrix and benchmarks")
        .example("$0 compare --plugins ./plugins --engine mine --engine compressor --out report", "Your engine beside the default, with an HTML report")
        .epilogue("Compare informs and never fails on a verdict: use `ctxbench certify` for the gate. Every engine runs in player processes; --max-time bounds the whole comparison."),
    handler: async (args) => {
      const seed = seedOf(args.seed);
      if (!args.bench && !args.certify) throw new UsageError("--no-bench and --no-certify together leave nothing to compare");
      if (!args.certify && args.scenarios !== undefined) throw new UsageError("--scenarios limits what the certifications play, and --no-certify leaves none");
      // --out is checked (and made) before any engine runs.
      const prepared = args.out === undefined ? null : prepareOutputDirectory("--out", args.out, io.cwd);
      const out = prepared?.path ?? null;
      try {
        // The pipeline and reporters load after the arguments are checked: a bad flag costs only the parse.
        const [{ compareEngines }, { publishResult }] = await Promise.all([import("../pipeline/compare.ts"), import("../../reports/index.ts")]);
        const progress = createProgress(io, { quiet: args.quiet });
        const outcome = await compareEngines({
          cwd: io.cwd,
          ...(args.engine !== undefined ? { engines: args.engine } : {}),
          pluginDirs: args.plugins ?? [],
          ...pythonRuntimeOf(args),
          suites: args.bench ? (args.suite ?? availableSuites()) : [],
          certify: args.certify,
          ...(args.checks !== undefined ? { checks: args.checks } : {}),
          ...(args.scenarios !== undefined ? { scenarios: args.scenarios } : {}),
          ...(seed !== undefined ? { seed } : {}),
          quick: args.quick,
          bounds: boundsOf(args),
          isolate: args.isolate,
          env: io.env,
          outputs: out === null ? [] : [out],
          onProgress: (line) => progress.step(line),
        });
        for (const notice of outcome.notices) io.stderr(`note: ${notice}\n`);
        const written = await publishResult(outcome.result, io, {
          format: args.format,
          color: wantsColor(io),
          stdoutTitle: "ctxbench: engines compared",
          out,
          title: "ctxbench: engines compared",
          environment: false,
        });
        if (out !== null) progress.step(`wrote ${written.length} reports to ${out}`);
      } catch (error) {
        if (prepared !== null) removeCreated(prepared.created);
        throw error;
      }
    },
  };
}
