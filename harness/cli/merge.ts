import { resolve } from "node:path";
import type { Argv, CommandModule, InferredOptionTypes } from "yargs";
import { reportFormats } from "../../reports/formats.ts";
import type { ResultJson } from "../result/index.ts";
import { NegativeVerdict, UsageError } from "../util/errors.ts";
import { readTextInput } from "../util/input-limits.ts";
import { prepareOutputDirectory, removeCreated } from "./output-paths.ts";
import { wantsColor, type CliIo } from "./io.ts";
import { parsePath } from "./option-values.ts";

/** A function, so that `--format` offers the reporters registered when the command is built. */
const mergeOptions = () =>
  ({
    format: { choices: reportFormats(), default: "terminal", describe: "What to print on stdout" },
    out: { type: "string", coerce: (raw: unknown) => parsePath("--out", raw), describe: "Write every format of the merged result into this directory" },
  }) as const;

type MergeArgs = InferredOptionTypes<ReturnType<typeof mergeOptions>> & { results: string[] };

/** `ctxbench merge`: join the result files of certify shards (or of certify and bench) into one. */
export function mergeCommand(io: CliIo): CommandModule<object, MergeArgs> {
  return {
    command: "merge <results..>",
    describe: "Join result files (certify shards, certify + bench) into one result; exit 1 if an engine is not certified",
    builder: (yargs: Argv) =>
      yargs
        .positional("results", { type: "string", array: true, demandOption: true, describe: "result.json files (from --out, or certify --format json)" })
        .options(mergeOptions())
        .example("ctxbench merge shard-1/result.json shard-2/result.json --out merged", "join two shards of one certification"),
    handler: async (args) => {
      const out = args.out === undefined ? null : prepareOutputDirectory("--out", args.out, io.cwd);
      try {
        // The schema, merge and reporters load after --out is checked: a bad flag or path costs only the parse.
        const [{ parseResult }, { mergeResultFiles, publishResult }] = await Promise.all([import("../result/index.ts"), import("../../reports/index.ts")]);
        const inputs = args.results.map((file) => ({ source: file, result: readResult(resolve(io.cwd, file), file, parseResult) }));
        const merged = mergeResultFiles(inputs);
        await publishResult(merged, io, {
          format: args.format,
          color: wantsColor(io),
          out: out === null ? null : out.path,
          title: "ctxbench: merged result",
          environment: true,
        });
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
 * A result file, bounded in size and depth, whose checks hang together and are checks of this
 * ctxbench as it states them (parseResult refuses anything else): a merge is a verdict, so a
 * hand-edited shard is refused rather than joined.
 */
function readResult(path: string, shown: string, parseResult: (text: string, source: string) => ResultJson): ResultJson {
  let text: string;
  if (shown.trim() === "") throw new UsageError("a result file argument is blank; give a path to a result.json");
  try {
    text = readTextInput(path, "result files");
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${shown}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  return parseResult(text, shown);
}
