import { appendFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Argv, CommandModule, InferredOptionTypes } from "yargs";
import { catalogueProblem } from "../../reports/coherence.ts";
import { mergeResultFiles } from "../../reports/merge.ts";
import { reporters } from "../../reports/registry.ts";
import { parseResult, ResultError, type ResultJson } from "../../reports/result.ts";
import { writeAllReports } from "../../reports/write-all.ts";
import { CHECKS } from "../conformance/checks/index.ts";
import { NegativeVerdict, UsageError } from "../util/errors.ts";
import { readTextInput } from "../util/input-limits.ts";
import { PACKAGE_JSON } from "../util/package-root.ts";
import { prepareOutputDirectory, removeCreated } from "./output-paths.ts";
import type { CliIo } from "./io.ts";

const FORMATS = ["terminal", "json", "junit", "markdown", "tap"] as const;
type MergeFormat = (typeof FORMATS)[number];

const mergeOptions = {
  format: { choices: FORMATS, default: "terminal" as MergeFormat, describe: "What to print on stdout" },
  out: { type: "string", describe: "Write every format of the merged result into this directory" },
} as const;

type MergeArgs = InferredOptionTypes<typeof mergeOptions> & { results: string[] };

/** `ctxbench merge`: join the result files of certify shards (or of certify and bench) into one. */
export function mergeCommand(io: CliIo): CommandModule<object, MergeArgs> {
  return {
    command: "merge <results..>",
    describe: "Join result files (certify shards, certify + bench) into one result; exit 1 if an engine is not certified",
    builder: (yargs: Argv) =>
      yargs
        .positional("results", { type: "string", array: true, demandOption: true, describe: "result.json files (from --out) or certify --format json outputs" })
        .options(mergeOptions)
        .example("ctxbench merge shard-1/result.json shard-2/result.json --out merged", "join two shards of one certification"),
    handler: async (args) => {
      const out = args.out === undefined ? null : prepareOutputDirectory("--out", args.out, io.cwd);
      try {
        const inputs = args.results.map((file) => ({ source: file, result: readResult(resolve(io.cwd, file), file) }));
        const merged = mergeResultFiles(inputs);
        if (out !== null) await writeAllReports(merged, out.path, { title: "ctxbench: merged result" });
        const summaryFile = io.env["GITHUB_STEP_SUMMARY"];
        if (summaryFile) {
          appendFileSync(summaryFile, reporters.markdown.render(merged, { title: "ctxbench: merged result" }));
        }
        const color = args.format === "terminal" && io.isTty && !io.env["NO_COLOR"];
        io.stdout(reporters[args.format].render(merged, { color }));
        const refused = merged.certifications.filter((certification) => certification.verdict !== "certified");
        if (refused.length > 0) throw new NegativeVerdict(`not certified: ${refused.map((c) => c.engine.name).join(", ")}`);
      } catch (error) {
        if (out !== null && !(error instanceof NegativeVerdict)) removeCreated(out.created);
        throw error;
      }
    },
  };
}

/**
 * A result file (or the one-engine JSON `certify --format json` prints), bounded in size and
 * depth, whose checks hang together and are checks of this ctxbench as it states them: a merge
 * is a verdict, so a hand-edited shard is refused rather than joined.
 */
function readResult(path: string, shown: string): ResultJson {
  let text: string;
  try {
    text = readTextInput(path, "result files");
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${shown}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const result = parseResult(text, shown);
  const problem = catalogueProblem(result, CHECKS, `ctxbench ${PACKAGE_JSON.version}`);
  if (problem) throw new ResultError(problem, shown);
  return result;
}
