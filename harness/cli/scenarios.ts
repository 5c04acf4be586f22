import { join, resolve } from "node:path";
import Table from "cli-table3";
import type { Argv, CommandModule } from "yargs";
import {
  buildScenario,
  DEFAULT_CONTEXT_LENGTH,
  DEFAULT_SEED,
  GENERATE_LIMITS,
  generateScenario,
  importScenarios,
  INTERLEAVE_MODES,
  listScenarios,
  scenarioToJson,
  TOOL_CALL_ID_STYLES,
  type InterleaveMode,
  type ToolCallIdStyle,
} from "../../scenarios/index.ts";
import { describeBytes } from "../util/input-limits.ts";
import type { CliIo } from "./io.ts";
import { parsePath, parseSeed, parseWholeNumber } from "./option-values.ts";
import { prepareOutputDirectory, removeCreated, writeFilesAtomically } from "./output-paths.ts";

/** `ctxbench scenarios list|show|generate|import`: the scenario catalogue and its inputs. */
export function scenariosCommand(io: CliIo): CommandModule<object, object> {
  return {
    command: "scenarios <command>",
    describe: "List, show, generate and import the seeded scenarios engines are run against",
    builder: (yargs: Argv) =>
      yargs
        .command(listCommand(io))
        .command(showCommand(io))
        .command(generateCommand(io))
        .command(importCommand(io))
        .demandCommand(1, "Name a scenarios command: list, show, generate or import.")
        .example("ctxbench scenarios list", "the catalogue with the rules each scenario exercises")
        .example("ctxbench scenarios show basic --seed 7", "the scenario JSON for seed 7")
        .example("ctxbench scenarios generate --turns 200 --id-style deterministic", "an ad-hoc scenario")
        .example("ctxbench scenarios import state.db --out scenarios-in", "one scenario per recorded session"),
    handler: () => undefined,
  };
}

function listCommand(io: CliIo): CommandModule<object, { json: boolean }> {
  return {
    command: "list",
    describe: "The catalogue: each scenario's name, description and the rule IDs it exercises",
    builder: (y) => y.option("json", { type: "boolean", default: false, describe: "Print a JSON array instead of a table" }),
    handler: (args) => {
      const infos = listScenarios();
      if (args.json) {
        io.stdout(`${JSON.stringify(infos, null, 2)}\n`);
        return;
      }
      const table = new Table({ head: ["scenario", "rules", "description"], colWidths: [24, 26, 56], wordWrap: true, style: io.isTty ? { head: ["cyan"] } : { head: [], border: [] } });
      for (const info of infos) table.push([info.name, info.rules.join(" "), info.description]);
      io.stdout(`${table.toString()}\n`);
    },
  };
}

function showCommand(io: CliIo): CommandModule<object, { name: string; seed: number }> {
  return {
    command: "show <name>",
    describe: "Print a catalogue scenario as JSON (the same name and seed always give the same bytes)",
    builder: (y) =>
      y
        .positional("name", { type: "string", demandOption: true, describe: "A name from `ctxbench scenarios list`" })
        .option("seed", { default: DEFAULT_SEED, coerce: (raw: unknown) => parseSeed("--seed", raw), describe: "Seed of the generator (a whole number)" }),
    handler: (args) => {
      io.stdout(scenarioToJson(buildScenario(args.name, args.seed)));
    },
  };
}

interface GenerateArgs {
  turns: number;
  sessions: number;
  "tool-output-bytes": number;
  "id-style": string;
  "calls-per-step": number;
  interleave: string;
  "context-length": number;
  seed: number;
}

function generateCommand(io: CliIo): CommandModule<object, GenerateArgs> {
  return {
    command: "generate",
    describe: "Print an ad-hoc coding-agent scenario as JSON",
    builder: (y) =>
      y
        .option("turns", { default: 24, coerce: (raw: unknown) => parseWholeNumber("--turns", raw, { max: GENERATE_LIMITS.turnsPerSession }), describe: `Turns per session (at most ${GENERATE_LIMITS.turnsPerSession})` })
        .option("sessions", { default: 1, coerce: (raw: unknown) => parseWholeNumber("--sessions", raw, { min: 1, max: GENERATE_LIMITS.sessions }), describe: `Sessions, interleaved on one engine (at most ${GENERATE_LIMITS.sessions})` })
        .option("tool-output-bytes", {
          default: 2000,
          coerce: (raw: unknown) => parseWholeNumber("--tool-output-bytes", raw, { max: GENERATE_LIMITS.toolOutputBytes }),
          describe: "Mean size of a tool output (each is 0.5–1.5× this)",
        })
        .option("id-style", {
          type: "string",
          default: "unique",
          choices: [...TOOL_CALL_ID_STYLES],
          describe: "Tool-call ids: unique provider ids, deterministic call_<12hex>, one constant id, or call_0.. per response",
        })
        .option("calls-per-step", {
          default: 1,
          coerce: (raw: unknown) => parseWholeNumber("--calls-per-step", raw, { min: 1, max: GENERATE_LIMITS.callsPerStep }),
          describe: "Most tool calls in one response (above 1: parallel batches)",
        })
        .option("interleave", { type: "string", default: "round-robin", choices: [...INTERLEAVE_MODES], describe: "How sessions interleave" })
        .option("context-length", { default: DEFAULT_CONTEXT_LENGTH, coerce: (raw: unknown) => parseWholeNumber("--context-length", raw, { min: 1 }), describe: "The model's context window in tokens" })
        .option("seed", { default: DEFAULT_SEED, coerce: (raw: unknown) => parseSeed("--seed", raw), describe: "Seed of the generator (a whole number)" })
        .epilogue(`The scenario may be at most an estimated ${describeBytes(GENERATE_LIMITS.scenarioBytes)} of JSON, so run can read it.`),
    handler: (args) => {
      const scenario = generateScenario({
        turns: args.turns,
        sessions: args.sessions,
        toolOutputBytes: args["tool-output-bytes"],
        idStyle: args["id-style"] as ToolCallIdStyle,
        callsPerStep: [1, args["calls-per-step"]],
        interleave: args.interleave as InterleaveMode,
        contextLength: args["context-length"],
        seed: args.seed,
      });
      io.stdout(scenarioToJson(scenario));
    },
  };
}

function importCommand(io: CliIo): CommandModule<object, { file: string; out: string | undefined; model: string | undefined; "context-length": number }> {
  return {
    command: "import <file>",
    describe:
      "Turn recorded sessions into scenarios: an OpenAI-format message list (JSON array or JSONL), a ctxbench session export, or a Hermes-style SQLite store (any schema version from v1, read-only). One scenario per session; without --out, one JSON scenario per line on stdout",
    builder: (y) =>
      y
        .positional("file", { type: "string", demandOption: true, describe: "The file to import" })
        .option("out", { type: "string", coerce: (raw: unknown) => parsePath("--out", raw), describe: "Write imported-<session>.json files into this directory" })
        .option("model", { type: "string", describe: "Model name when the source records none" })
        .option("context-length", { default: DEFAULT_CONTEXT_LENGTH, coerce: (raw: unknown) => parseWholeNumber("--context-length", raw, { min: 1 }), describe: "The model's context window in tokens" }),
    handler: (args) => {
      const file = resolve(io.cwd, args.file);
      // --out is checked (and made) before the file is read; a failure after that removes what it made.
      const out = args.out === undefined ? null : prepareOutputDirectory("--out", args.out, io.cwd);
      try {
        const scenarios = importScenarios(file, { contextLength: args["context-length"], ...(args.model ? { model: args.model } : {}) });
        // Every scenario is serialised before anything is written, so a failure leaves no output behind.
        const used = new Set<string>();
        const outputs = scenarios.map((scenario) => ({ name: uniqueFileName(scenario.sessions[0]!.id, used), text: scenarioToJson(scenario) }));
        if (out === null) {
          for (const output of outputs) io.stdout(output.text);
          return;
        }
        const files = outputs.map((output) => ({ path: join(out.path, output.name), data: output.text }));
        writeFilesAtomically(files);
        for (const written of files) io.stdout(`${written.path}\n`);
      } catch (error) {
        if (out !== null) removeCreated(out.created);
        throw error;
      }
    },
  };
}

function uniqueFileName(sessionId: string, used: Set<string>): string {
  const stem = `imported-${sessionId.replace(/[^A-Za-z0-9._-]+/g, "_")}`;
  let name = `${stem}.json`;
  for (let n = 2; used.has(name); n++) name = `${stem}-${n}.json`;
  used.add(name);
  return name;
}
