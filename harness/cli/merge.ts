import { appendFileSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Argv, CommandModule } from "yargs";
import { mergeResults } from "../../reports/merge.ts";
import { reporters } from "../../reports/registry.ts";
import { certificationOf, parseResult, RESULT_SCHEMA_VERSION, type CertifyJson, type ResultJson } from "../../reports/result.ts";
import { writeAllReports } from "../../reports/write-all.ts";
import { NegativeVerdict, UsageError } from "../util/errors.ts";
import type { CliIo } from "./io.ts";

const FORMATS = ["terminal", "json", "junit", "markdown", "tap"] as const;
type MergeFormat = (typeof FORMATS)[number];

interface MergeArgs {
  results: string[];
  format: MergeFormat;
  out?: string | undefined;
}

/** `ctxbench merge`: join the result files of certify shards (or of certify and bench) into one. */
export function mergeCommand(io: CliIo): CommandModule<object, MergeArgs> {
  return {
    command: "merge <results..>",
    describe: "Join result files (certify shards, certify + bench) into one result; exit 1 if an engine is not certified",
    builder: (yargs: Argv) =>
      yargs
        .positional("results", { type: "string", array: true, demandOption: true, describe: "result.json files (from --out) or certify --format json outputs" })
        .option("format", { choices: FORMATS, default: "terminal" as MergeFormat, describe: "What to print on stdout" })
        .option("out", { type: "string", describe: "Write every format of the merged result into this directory" })
        .example("ctxbench merge shard-1/result.json shard-2/result.json --out merged", "join two shards of one certification") as unknown as Argv<MergeArgs>,
    handler: async (args) => {
      const inputs = args.results.map((file) => readResult(resolve(io.cwd, file)));
      const merged = mergeResults(...inputs);
      if (args.out !== undefined) await writeAllReports(merged, resolve(io.cwd, args.out), { title: "ctxbench: merged result" });
      const summaryFile = io.env["GITHUB_STEP_SUMMARY"];
      if (summaryFile) {
        appendFileSync(summaryFile, reporters.markdown.render(merged, { title: "ctxbench: merged result" }));
      }
      const color = args.format === "terminal" && io.isTty && !io.env["NO_COLOR"];
      io.stdout(reporters[args.format].render(merged, { color }));
      const refused = merged.certifications.filter((certification) => certification.verdict !== "certified");
      if (refused.length > 0) throw new NegativeVerdict(`not certified: ${refused.map((c) => c.engine.name).join(", ")}`);
    },
  };
}

/** A result file, or the `certify --format json` shape turned into one. */
function readResult(path: string): ResultJson {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${(error as Error).message}`);
  }
  try {
    const value = JSON.parse(text) as Partial<CertifyJson>;
    if (value && typeof value === "object" && !("certifications" in value) && value.engine && Array.isArray(value.checks) && value.runInfo) {
      text = JSON.stringify({ schemaVersion: RESULT_SCHEMA_VERSION, runInfo: value.runInfo, certifications: [certificationOf(value.engine, value.checks)], benchmarks: [] });
    }
  } catch {
    // parseResult below names the problem.
  }
  return parseResult(text, path);
}
