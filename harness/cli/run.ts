import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { Argv, CommandModule } from "yargs";
import { playScenario } from "../host/play.ts";
import { streamTrace, writeTraceFile } from "../trace/jsonl.ts";
import type { Trace } from "../trace/events.ts";
import { DEFAULT_SEED, scenarioFromArgument, type Scenario } from "../../scenarios/index.ts";
import { loadSelectedEngine, withEngineSelection, type EngineSelectionArgs } from "./engine-options.ts";
import { UsageError } from "../util/errors.ts";
import type { CliIo } from "./io.ts";

interface RunArgs extends EngineSelectionArgs {
  scenario: string;
  seed?: number | undefined;
  trace?: string | undefined;
  home?: string | undefined;
  "compaction-timeout"?: number | undefined;
  json: boolean;
}

/** `ctxbench run`: play one scenario against one engine and write the trace. */
export function runCommand(io: CliIo): CommandModule<object, RunArgs> {
  return {
    command: "run",
    describe: "Play one scenario against one engine on the reference host and write the trace (JSONL)",
    builder: (yargs: Argv) =>
      withEngineSelection(yargs)
        .option("scenario", { type: "string", demandOption: true, describe: "A catalogue name (ctxbench scenarios list) or a scenario JSON file" })
        .option("seed", { type: "number", describe: `Seed: builds a catalogue scenario (default ${DEFAULT_SEED}) or replaces a file's seed` })
        .option("trace", { type: "string", describe: 'Where to write the trace, one event per line (default <scenario>.trace.jsonl; a path ending in .gz is gzip-compressed; --trace=- for stdout)' })
        .option("home", { type: "string", describe: "Sandbox directory for the engine and the session store (default: a temporary directory, removed afterwards)" })
        .option("compaction-timeout", { type: "number", describe: "Host timeout of one compaction pass in ms (default: the scenario's, else 120000)" })
        .option("json", { type: "boolean", default: false, describe: "Print the run summary as JSON" })
        .example("ctxbench run --engine compressor --scenario basic", "play the catalogue's basic scenario, trace in basic.trace.jsonl")
        .example("ctxbench run --engine lcm --scenario my.json --seed 3 --trace out.jsonl", "a scenario file with seed 3")
        .example("ctxbench run --scenario long-session --trace long.jsonl.gz", "a compressed trace (a long session is ~600 MB as plain JSONL)") as unknown as Argv<RunArgs>,
    handler: async (args) => {
      const scenario = resolveScenario(io, args.scenario, args.seed);
      const compactionTimeoutMs = positiveOption("--compaction-timeout", args["compaction-timeout"]);
      const loaded = await loadSelectedEngine(io, args, { strict: true });
      const home = args.home === undefined ? mkdtempSync(join(tmpdir(), "ctxbench-run-")) : resolve(io.cwd, args.home);
      if (args.home !== undefined && existsSync(join(home, "sessions.db"))) {
        throw new UsageError(`${home} already holds a session store (sessions.db); give --home an empty or new directory`);
      }
      mkdirSync(home, { recursive: true });
      let trace: Trace;
      try {
        const result = await playScenario(scenario, loaded.engine, {
          home,
          engineVersion: loaded.version,
          ...(compactionTimeoutMs !== undefined ? { compactionTimeoutMs } : {}),
        });
        trace = result.trace;
      } finally {
        if (args.home === undefined) rmSync(home, { recursive: true, force: true });
      }
      const target = args.trace ?? `${safeFileStem(scenario.name)}.trace.jsonl`;
      let tracePath: string | null = null;
      if (target === "-") {
        streamTrace(trace, io.stdout);
      } else {
        tracePath = resolve(io.cwd, target);
        mkdirSync(dirname(tracePath), { recursive: true });
        writeTraceFile(tracePath, trace);
      }
      const summary = summarize(trace, { scenario: scenario.name, seed: scenario.seed, engine: loaded.name, trace: tracePath });
      if (args.json) io.stdout(`${JSON.stringify(summary, null, 2)}\n`);
      else if (target !== "-") io.stdout(renderSummary(summary));
      else io.stderr(renderSummary(summary));
    },
  };
}

function resolveScenario(io: CliIo, value: string, seed: number | undefined): Scenario {
  if (seed !== undefined && !Number.isSafeInteger(seed)) throw new UsageError(`--seed must be an integer, got ${seed}`);
  return scenarioFromArgument(value, io.cwd, seed);
}

function positiveOption(flag: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isFinite(value) || value <= 0) throw new UsageError(`${flag} must be a positive number, got ${value}`);
  return value;
}

function safeFileStem(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, "_");
}

export interface RunSummary {
  scenario: string;
  seed: number;
  engine: string;
  trace: string | null;
  events: number;
  sessions: number;
  turns: number;
  requests: number;
  engineCalls: number;
  engineErrors: number;
  compactions: Record<string, number>;
  turnExits: Record<string, number>;
  warnings: number;
}

export function summarize(trace: Trace, head: Pick<RunSummary, "scenario" | "seed" | "engine" | "trace">): RunSummary {
  const summary: RunSummary = { ...head, events: trace.length, sessions: 0, turns: 0, requests: 0, engineCalls: 0, engineErrors: 0, compactions: {}, turnExits: {}, warnings: 0 };
  for (const event of trace) {
    if (event.type === "turn-end") {
      summary.turns++;
      summary.turnExits[event.exitReason] = (summary.turnExits[event.exitReason] ?? 0) + 1;
    } else if (event.type === "request") summary.requests++;
    else if (event.type === "engine-call") {
      summary.engineCalls++;
      if (event.resultKind === "error") summary.engineErrors++;
    } else if (event.type === "compaction") summary.compactions[event.outcome] = (summary.compactions[event.outcome] ?? 0) + 1;
    else if (event.type === "warning") summary.warnings++;
    else if (event.type === "run-end") summary.sessions = Object.keys(event.histories).length;
  }
  return summary;
}

function renderSummary(summary: RunSummary): string {
  const counts = (record: Record<string, number>) =>
    Object.keys(record).length === 0 ? "none" : Object.entries(record).map(([key, count]) => `${key} ${count}`).join(", ");
  return [
    `scenario ${summary.scenario} (seed ${summary.seed}) on engine ${summary.engine}`,
    `  sessions ${summary.sessions}, turns ${summary.turns}, provider requests ${summary.requests}`,
    `  engine calls ${summary.engineCalls} (${summary.engineErrors} threw), warnings ${summary.warnings}`,
    `  compactions: ${counts(summary.compactions)}`,
    `  turn exits: ${counts(summary.turnExits)}`,
    summary.trace === null ? "" : `  trace: ${summary.trace} (${summary.events} events)`,
    "",
  ]
    .filter((line, index, lines) => line !== "" || index === lines.length - 1)
    .join("\n");
}
