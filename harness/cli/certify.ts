import { join } from "node:path";
import type { Argv, CommandModule, InferredOptionTypes } from "yargs";
import { selectOptions } from "../pipeline/engine-request.ts";
import { selectEngine } from "../plugins/select.ts";
import { reportFormats } from "../../reports/formats.ts";
import { NegativeVerdict } from "../util/errors.ts";
import { baselineOptions, prepareBaseline, saveAndGate, type BaselineRequest } from "./baseline-gate.ts";
import { wantsColor, type CliIo } from "./io.ts";
import { prepareOutputDirectory, prepareOutputFile, removeCreated } from "./output-paths.ts";
import { boundOptions, boundsOf, checksOption, engineRequestOf, engineSelection, quietOption, scenariosOption, seedOption, seedsOf, seedsOption } from "./options.ts";
import { createProgress } from "./progress.ts";
import { parsePath } from "./option-values.ts";

/** A function, so that `--format` offers the reporters registered when the command is built. */
const certifyOptions = () => ({
  ...engineSelection,
  ...seedOption,
  ...seedsOption,
  ...boundOptions,
  ...checksOption,
  ...scenariosOption,
  ...quietOption,
  expectations: { type: "string", coerce: (raw: unknown) => parsePath("--expectations", raw), describe: "Expectations file (YAML: check id -> {expected, reason, link}); default <plugin dir>/expectations.yaml if present" },
  "update-expectations": {
    type: "boolean",
    default: false,
    describe: "Rewrite the expectations file from this run's outcomes (entries of checks that did not run are kept); the verdict of this run still judges the file as it was",
  },
  format: { choices: reportFormats(), default: "terminal", describe: "What to print on stdout (json: the result.json document itself)" },
  out: { type: "string", coerce: (raw: unknown) => parsePath("--out", raw), describe: "Write every format (result.json, junit.xml, report.md, …) and the repro files into this directory (without it, repro files of failures go to ./ctxbench-repro)" },
  shard: { type: "string", describe: "Run shard i of n (i/n); join the shards' result.json files with ctxbench merge" },
  ...baselineOptions,
}) as const;

type CertifyArgs = InferredOptionTypes<ReturnType<typeof certifyOptions>>;

/** `ctxbench certify`: run the conformance checks against one engine and give a verdict. */
export function certifyCommand(io: CliIo): CommandModule<object, CertifyArgs> {
  return {
    command: "certify",
    describe: "Run the conformance checks against one engine: exit 0 certified, 1 not certified",
    builder: (yargs: Argv) =>
      yargs
        .options(certifyOptions())
        .example("ctxbench certify --engine lcm", "certify a bundled engine")
        .example("ctxbench certify --plugins ./plugins --engine mine --out results", "certify your plugin, writing JUnit, Markdown and repro files")
        .example("ctxbench certify --engine mine --checks CMP-2 --seed 7", "replay one rule's checks with another seed")
        .example("ctxbench certify --engine mine --checks CMP-2 --scenarios parallel-tool-calls", "recheck one rule on the one scenario that showed its failure")
        .example("ctxbench certify --engine mine --seeds 1,2,3,4,5", "play every scenario and probe under five seeds")
        .example("ctxbench certify --engine mine --timeout 2000 --max-time 60", "bound each run to 2 s and the whole certification to a minute")
        .example("ctxbench certify --engine mine --save-baseline main && ctxbench certify --engine mine --baseline main", "gate on the certification's time (its run stage and the harness's share)"),
    handler: (args) => certify(io, args),
  };
}

async function certify(io: CliIo, args: CertifyArgs): Promise<void> {
  const seeds = seedsOf(args.seed, args.seeds);
  // --out is checked (and made) before the engine runs: a bad path is one line, not a lost certification.
  const out = args.out === undefined ? null : prepareOutputDirectory("--out", args.out, io.cwd);
  // So is the expectations file --update-expectations will rewrite after the run.
  const rewritten = args["update-expectations"] && args.expectations !== undefined ? prepareOutputFile("--expectations", args.expectations, io.cwd) : null;
  const baseline = prepareBaseline(io, args);
  try {
    await certifyInto(io, args, seeds, out?.path ?? null, baseline);
  } catch (error) {
    if (!(error instanceof NegativeVerdict)) removeCreated([...(out?.created ?? []), ...(rewritten?.created ?? []), ...baseline.created]);
    throw error;
  }
}

async function certifyInto(io: CliIo, args: CertifyArgs, seeds: number[] | undefined, outDir: string | null, baseline: BaselineRequest): Promise<void> {
  const reproDir = outDir !== null ? join(outDir, "repro") : join(io.cwd, "ctxbench-repro");
  const summaryFile = io.env["GITHUB_STEP_SUMMARY"];
  const progress = createProgress(io, { quiet: args.quiet });
  // The engine is selected before the checks, runner and reporters load: a refused one costs only this.
  const request = { cwd: io.cwd, ...engineRequestOf(args) };
  const selection = await selectEngine(selectOptions(request));
  const { certifyEngine } = await import("../pipeline/certify.ts");
  // What only the end needs loads once the first run has settled, while the players play: the
  // parent's modules loaded before it starts them are time no player works.
  let finishing: ReturnType<typeof importFinishing> | undefined;
  const loadFinishing = () => (finishing ??= importFinishing());
  const outcome = await certifyEngine({
    ...request,
    selection,
    ...(args.checks !== undefined ? { checks: args.checks } : {}),
    ...(args.scenarios !== undefined ? { scenarios: args.scenarios } : {}),
    ...(args.shard !== undefined ? { shard: args.shard } : {}),
    ...(seeds !== undefined ? { seeds } : {}),
    ...(args.expectations !== undefined ? { expectationsPath: args.expectations } : {}),
    updateExpectations: args["update-expectations"],
    bounds: boundsOf(args),
    isolate: args.isolate,
    env: io.env,
    outputs: [reproDir, ...(outDir !== null ? [outDir] : []), ...(summaryFile ? [summaryFile] : [])],
    onProgress: (line) => {
      void loadFinishing();
      progress.step(line);
    },
  });
  const [{ writeRepros }, { publishResult }, { certificationFigures }] = await loadFinishing();
  for (const notice of outcome.notices) io.stderr(`note: ${notice}\n`);
  if (outcome.updatedExpectations !== null) io.stderr(`wrote ${outcome.updatedExpectations.entries} expectation(s) to ${outcome.updatedExpectations.path}\n`);

  const { certification, failures } = outcome.assembled;
  const name = certification.engine.name;
  const repros = writeRepros(reproDir, failures, name, outcome.plan.flags);
  await publishResult(outcome.result, io, {
    format: args.format,
    color: wantsColor(io),
    out: outDir,
    title: `ctxbench certify: ${name}`,
    environment: true,
  });
  if (repros.length > 0) io.stderr(`repro files for ${repros.length} unexpected outcome(s) in ${reproDir}\n`);
  if (certification.verdict === "certified") saveAndGate(io, args, baseline, certificationFigures(certification));
  if (certification.verdict !== "certified") throw new NegativeVerdict(`${name} is not certified: ${notCertifiedBecause(certification, failures.filter((failure) => failure.level === "MUST").map((failure) => failure.id))}`);
}

/** The modules only a certification's end needs: repros, reporters, timing figures. */
function importFinishing() {
  return Promise.all([import("../pipeline/repro.ts"), import("../../reports/index.ts"), import("../pipeline/timing.ts")]);
}

/** Why a certification failed, in one line: integrity findings first, then the unexpected MUST outcomes. */
export function notCertifiedBecause(certification: { integrity?: Array<{ message: string }>; summary: { unexpected: number } }, mustIds: readonly string[]): string {
  const reasons = (certification.integrity ?? []).map((finding) => finding.message);
  if (mustIds.length > 0) reasons.push(`${certification.summary.unexpected} unexpected outcome(s) (${mustIds.join(", ")})`);
  return reasons.join("; ");
}
