import type { Argv, CommandModule } from "yargs";
import { scanPluginRoots } from "../plugins/discover.ts";
import { publicFields, renderEnginesTable } from "./engines.ts";
import { reporters } from "../../reports/index.ts";
import { runComparison, uncertified } from "./comparison.ts";
import { NegativeVerdict } from "../util/errors.ts";
import { wantsColor, type CliIo } from "./io.ts";
import { createProgress } from "./progress.ts";

/** What every step of the main job sees. */
export interface MainJobContext {
  io: CliIo;
  /** Extra plugin roots (`--plugins DIR`). */
  pluginDirs: string[];
  json: boolean;
  /** Where the reports go (default ctxbench-report/). */
  out: string;
  seed: number;
  quick: boolean;
  quiet: boolean;
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

const compareEngines: MainJobStep = {
  id: "compare",
  title: "Certification and benchmarks of every engine found",
  async run(context) {
    const { io } = context;
    const result = await runComparison(io, {
      pluginDirs: context.pluginDirs,
      certify: true,
      seed: context.seed,
      quick: context.quick,
      out: context.out,
      progress: createProgress(io, { quiet: context.quiet || context.json }),
    });
    context.results["compare"] = result;
    if (!context.json) {
      io.stdout(reporters.terminal.render(result, { color: wantsColor(io) }));
      io.stdout(`Reports (HTML, Markdown, JUnit, TAP, JSON) written to ${context.out}/\n`);
    }
    const failed = uncertified(result);
    if (failed.length > 0) throw new NegativeVerdict(`not certified: ${failed.join(", ")}`);
  },
};

/** The steps of the main job, in order. */
export const mainJobSteps: MainJobStep[] = [listEngines, compareEngines];

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

interface MainArgs {
  step?: string[] | undefined;
  plugins?: string[] | undefined;
  json?: boolean | undefined;
  out: string;
  seed: number;
  quick: boolean;
  quiet: boolean;
}

/** `ctxbench main`: the job `npm start` runs. */
export function mainJobCommand(io: CliIo): CommandModule<object, any> {
  return {
    command: "main",
    describe: "The main job (what `npm start` runs): list the engines, certify and benchmark each, print the comparison, write the reports",
    builder: (yargs: Argv) =>
      yargs
        .option("plugins", { type: "string", array: true, describe: "Another directory holding plugin directories (repeatable)" })
        .option("step", { type: "string", array: true, choices: mainJobSteps.map((step) => step.id), describe: "Run only these steps (repeatable; default: all, in order)" })
        .option("json", { type: "boolean", default: false, describe: "Print one JSON object with every stage's result" })
        .option("out", { type: "string", default: "ctxbench-report", describe: "Directory the reports are written to" })
        .option("seed", { type: "number", default: 1, describe: "Seed of every scenario and transcript" })
        .option("quick", { type: "boolean", default: false, describe: "Smaller benchmark inputs and fewer samples" })
        .option("quiet", { type: "boolean", default: false, describe: "No progress lines (also quiet when CI=true)" }),
    handler: async (argv) => {
      const args = argv as unknown as MainArgs;
      await runMainJob({
        io,
        pluginDirs: args.plugins ?? [],
        json: args.json ?? false,
        out: args.out,
        seed: args.seed,
        quick: args.quick,
        quiet: args.quiet,
        results: {},
      }, args.step ? mainJobSteps.filter((step) => args.step!.includes(step.id)) : mainJobSteps);
    },
  };
}
