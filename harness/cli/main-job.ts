import { resolve } from "node:path";
import type { Argv, CommandModule, InferredOptionTypes } from "yargs";
import { availableSuites } from "../bench/suite-names.ts";
import { scanPluginRoots } from "../plugins/discover.ts";
import { publicFields, renderEnginesTable } from "./engines.ts";
import { NegativeVerdict } from "../util/errors.ts";
import { wantsColor, type CliIo } from "./io.ts";
import { prepareOutputDirectory, removeCreated } from "./output-paths.ts";
import { boundOptions, boundsOf, maxTimeOption, quietOption, seedOf, seedOption } from "./options.ts";
import { createProgress } from "./progress.ts";
import { parseEach, parsePath } from "./option-values.ts";

/** What every step of the main job sees. */
export interface MainJobContext {
  io: CliIo;
  /** Extra plugin roots (`--plugins DIR`). */
  pluginDirs: string[];
  json: boolean;
  /** Where the reports go (default ctxbench-report/). */
  out: string;
  seed: number | undefined;
  quick: boolean;
  quiet: boolean;
  bounds: { timeoutMs: number; maxTimeMs: number };
  isolate: boolean;
  /** Each step's machine-readable result, keyed by step id; printed as one JSON object with --json. */
  results: Record<string, unknown>;
}

/**
 * One stage of `ctxbench main`. A step that throws NegativeVerdict is recorded and the next steps
 * still run (so reports are written for a failed certification); any other error stops the job.
 */
export interface MainJobStep {
  id: string;
  title: string;
  run(context: MainJobContext): Promise<void>;
}

const listEngines: MainJobStep = {
  id: "engines",
  title: "Context engines",
  async run(context) {
    const { engines } = await scanPluginRoots({ cwd: context.io.cwd, pluginDirs: context.pluginDirs });
    context.results["engines"] = engines.map(publicFields);
    if (!context.json) context.io.stdout(renderEnginesTable(engines, context.io));
  },
};

const compareStep: MainJobStep = {
  id: "compare",
  title: "Certification and benchmarks of every engine found",
  async run(context) {
    const { io } = context;
    const progress = createProgress(io, { quiet: context.quiet || context.json });
    const out = resolve(io.cwd, context.out);
    // Loaded when the step runs, not with the command: a refused flag or --out costs only the parse.
    const [{ compareEngines }, { reporters, writeAllReports }] = await Promise.all([import("../pipeline/compare.ts"), import("../../reports/index.ts")]);
    const outcome = await compareEngines({
      cwd: io.cwd,
      pluginDirs: context.pluginDirs,
      suites: availableSuites(),
      certify: true,
      ...(context.seed !== undefined ? { seed: context.seed } : {}),
      quick: context.quick,
      bounds: context.bounds,
      isolate: context.isolate,
      env: io.env,
      outputs: [out],
      onProgress: (line) => progress.step(line),
    });
    for (const notice of outcome.notices) io.stderr(`note: ${notice}\n`);
    const result = outcome.result;
    const written = await writeAllReports(result, out, { title: "ctxbench: engines compared" });
    progress.step(`wrote ${written.length} reports to ${out}`);
    context.results["compare"] = result;
    if (!context.json) {
      io.stdout(reporters.terminal.render(result, { color: wantsColor(io) }));
      io.stdout(`Reports (HTML, Markdown, JUnit, TAP, JSON) written to ${context.out}/\n`);
    }
    const failed = outcome.uncertified;
    if (failed.length > 0) throw new NegativeVerdict(`not certified: ${failed.join(", ")}`);
  },
};

/** The steps of the main job, in order. */
export const mainJobSteps: MainJobStep[] = [listEngines, compareStep];

export async function runMainJob(context: MainJobContext, steps: readonly MainJobStep[] = mainJobSteps): Promise<void> {
  const verdicts: string[] = [];
  for (const step of steps) {
    if (!context.json) context.io.stdout(`== ${step.title}\n`);
    try {
      await step.run(context);
    } catch (error) {
      if (!(error instanceof NegativeVerdict)) throw error;
      verdicts.push(`${step.title}: ${error.message}`);
      if (!context.json) context.io.stdout(`${step.title}: ${error.message}\n`);
    }
  }
  if (context.json) context.io.stdout(`${JSON.stringify(context.results, null, 2)}\n`);
  if (verdicts.length > 0) throw new NegativeVerdict(verdicts.join("; "));
}

const mainOptions = {
  plugins: { type: "string", array: true, coerce: (raw: unknown) => parseEach("--plugins", raw, parsePath), describe: "Another directory holding plugin directories (repeatable)" },
  step: { array: true, choices: mainJobSteps.map((step) => step.id), describe: "Run only these steps (repeatable; default: all, in order)" },
  json: { type: "boolean", default: false, describe: "Print one JSON object with every stage's result" },
  out: { type: "string", default: "ctxbench-report", coerce: (raw: unknown) => parsePath("--out", raw), describe: "Directory the reports are written to" },
  ...seedOption,
  quick: { type: "boolean", default: false, describe: "Smaller benchmark inputs and fewer samples" },
  ...quietOption,
  ...boundOptions,
  // Three engines certified and benchmarked by five suites: about three minutes on 2 cores.
  "max-time": maxTimeOption(600),
} as const;

type MainArgs = InferredOptionTypes<typeof mainOptions>;

/** `ctxbench main`: the job `npm start` runs. */
export function mainJobCommand(io: CliIo): CommandModule<object, MainArgs> {
  return {
    command: "main",
    describe: "The main job (what `npm start` runs): list the engines, certify and benchmark each, print the comparison, write the reports",
    builder: (yargs: Argv) => yargs.options(mainOptions),
    handler: async (args) => {
      const steps = args.step;
      // The report directory is checked (and made) before three engines are certified and benchmarked.
      const prepared = prepareOutputDirectory("--out", args.out, io.cwd);
      try {
        await runMainJob(
        {
          io,
          pluginDirs: args.plugins ?? [],
          json: args.json,
          out: args.out,
          seed: seedOf(args.seed),
          quick: args.quick,
          quiet: args.quiet,
          bounds: boundsOf(args),
          isolate: args.isolate,
          results: {},
        },
        steps ? mainJobSteps.filter((step) => steps.includes(step.id)) : mainJobSteps,
        );
      } catch (error) {
        // A job stopped by bad input leaves no report directory it made (a verdict keeps its reports).
        if (!(error instanceof NegativeVerdict)) removeCreated(prepared.created);
        throw error;
      }
    },
  };
}
