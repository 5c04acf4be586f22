import type { Argv, CommandModule } from "yargs";
import { scanPluginRoots } from "../plugins/discover.ts";
import { publicFields, renderEnginesTable } from "./engines.ts";
import { NegativeVerdict } from "./errors.ts";
import type { CliIo } from "./io.ts";

/** What every step of the main job sees. */
export interface MainJobContext {
  io: CliIo;
  /** Extra plugin roots (`--plugins DIR`). */
  pluginDirs: string[];
  json: boolean;
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

/** The steps of the main job, in order. Later stages (certify, bench, reports) append theirs here. */
export const mainJobSteps: MainJobStep[] = [listEngines];

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
  plugins?: string[] | undefined;
  json?: boolean | undefined;
}

/** `ctxbench main`: the job `npm start` runs. */
export function mainJobCommand(io: CliIo): CommandModule<object, any> {
  return {
    command: "main",
    describe: "Run the main job (what `npm start` runs): each stage in order, starting with the engine listing",
    builder: (yargs: Argv) =>
      yargs
        .option("plugins", { type: "string", array: true, describe: "Another directory holding plugin directories (repeatable)" })
        .option("json", { type: "boolean", default: false, describe: "Print one JSON object with every stage's result" }),
    handler: async (argv) => {
      const args = argv as MainArgs;
      await runMainJob({ io, pluginDirs: args.plugins ?? [], json: args.json ?? false, results: {} });
    },
  };
}
