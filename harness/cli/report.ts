import { resolve } from "node:path";
import type { Argv, CommandModule, InferredOptionTypes } from "yargs";
import { reportFormats } from "../../reports/formats.ts";
import type { ResultJson } from "../result/index.ts";
import { UsageError } from "../util/errors.ts";
import { readTextInput } from "../util/input-limits.ts";
import { prepareOutputFile, removeCreated, writeFilesAtomically } from "./output-paths.ts";
import { wantsColor, type CliIo } from "./io.ts";
import { parsePath } from "./option-values.ts";

/** A function, so that `--format` offers the reporters registered when the command is built. */
const reportOptions = () =>
  ({
    format: { choices: reportFormats({ pages: true }), default: "terminal", describe: "Output format" },
    out: { type: "string", coerce: (raw: unknown) => parsePath("--out", raw), describe: "Write the report to this file instead of stdout" },
    title: { type: "string", describe: "Heading of markdown and html reports" },
  }) as const;

type ReportArgs = InferredOptionTypes<ReturnType<typeof reportOptions>> & { results: string[] };

/** `ctxbench report RESULT.json …`: merge result files and render them in one format. */
export function reportCommand(io: CliIo): CommandModule<object, ReportArgs> {
  return {
    command: "report <results..>",
    describe: "Render one or more result JSON files (from certify or bench) as a report",
    builder: (yargs: Argv) =>
      yargs
        .positional("results", { type: "string", array: true, demandOption: true, describe: "Result JSON files; several are merged (shards, or certify + bench)" })
        .options(reportOptions())
        .example("$0 report result.json", "Tables on the terminal")
        .example("$0 report certify.json bench.json --format html --out report.html", "One self-contained HTML page with charts")
        .example("$0 report shard-*.json --format junit --out junit.xml", "Merge shards into JUnit XML for CI")
        .epilogue("A file that is not JSON or not a valid result exits 2 and names the file and the JSON path of the problem."),
    handler: (args) => report(io, args),
  };
}

function readResult(io: CliIo, file: string, parseResult: (text: string, source: string) => ResultJson): ResultJson {
  let text: string;
  if (file.trim() === "") throw new UsageError("a result file argument is blank; give a path to a result.json");
  try {
    text = readTextInput(resolve(io.cwd, file), "result files");
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  return parseResult(text, file);
}

async function report(io: CliIo, args: ReportArgs): Promise<void> {
  // --out is checked (and its directory made) before any input is read; it is written only once the report is whole.
  const out = args.out === undefined ? null : prepareOutputFile("--out", args.out, io.cwd);
  try {
    // The schema, merge and renderers load after --out is checked: a bad flag or path costs only the parse.
    const [{ parseResult }, { mergeResultFiles }, { reporterFor }] = await Promise.all([import("../result/index.ts"), import("../../reports/merge.ts"), import("../../reports/registry.ts")]);
    const files = args.results.map((file) => ({ source: file, result: readResult(io, file, parseResult) }));
    const merged = mergeResultFiles(files);
    const color = !args.out && wantsColor(io);
    const text = reporterFor(args.format).render(merged, { color, ...(args.title ? { title: args.title } : {}) });
    if (out === null) {
      io.stdout(text);
      return;
    }
    writeFilesAtomically([{ path: out.path, data: text }]);
  } catch (error) {
    if (out !== null) removeCreated(out.created);
    throw error;
  }
  io.stdout(`wrote ${args.out} (${args.format})\n`);
}
