import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Argv, CommandModule, InferredOptionTypes } from "yargs";
import { PROBES } from "../conformance/probes/index.ts";
import type { SourceRef } from "../conformance/sources.ts";
import { appliedBounds, defaultBounds } from "../pipeline/bounds.ts";
import type { RunBounds } from "../result/index.ts";
import { playerEnv } from "../pipeline/env.ts";
import { selectOptions } from "../pipeline/engine-request.ts";
import type { PlannedRun } from "../pipeline/run.ts";
import { selectEngine } from "../plugins/select.ts";
import { streamTrace, writeTraceFile } from "../trace/jsonl.ts";
import type { Trace } from "../trace/events.ts";
import { DEFAULT_SEED, scenarioFromArgument, type Scenario } from "../../scenarios/index.ts";
import { NegativeVerdict, UsageError } from "../util/errors.ts";
import type { CliIo } from "./io.ts";
import { parsePath, parseTimerMs } from "./option-values.ts";
import { prepareOutputDirectory, prepareOutputFile, removeCreated, writeFileThrough } from "./output-paths.ts";
import { boundOptions, engineRequestOf, engineSelection, maxTimeOf, seedOf, seedOption } from "./options.ts";

const runOptions = {
  ...engineSelection,
  ...seedOption,
  "max-time": boundOptions["max-time"],
  isolate: boundOptions.isolate,
  scenario: { type: "string", coerce: (raw: unknown) => parsePath("--scenario", raw), describe: "A catalogue name (ctxbench scenarios list) or a scenario JSON file" },
  probe: { type: "string", choices: [...PROBES.keys()].sort(), describe: "A conformance probe to run instead of a scenario (what a failing check's repro replays)" },
  trace: { type: "string", coerce: (raw: unknown) => parsePath("--trace", raw), describe: 'Where to write the trace, one event per line (default <scenario>.trace.jsonl; a path ending in .gz is gzip-compressed; --trace=- for stdout)' },
  home: { type: "string", coerce: (raw: unknown) => parsePath("--home", raw), describe: "Keep the run's directory here: the session store (sessions.db) and the engine's sandbox (engine/); default a temporary one, removed afterwards" },
  "compaction-timeout": { type: "string", coerce: (raw: unknown) => parseTimerMs("--compaction-timeout", raw), describe: "Host timeout of one compaction pass in ms (default: the scenario's, else 120000)" },
  json: { type: "boolean", default: false, describe: "Print the run summary as JSON" },
} as const;

type RunArgs = InferredOptionTypes<typeof runOptions>;

/** `ctxbench run`: play one scenario (or probe) against one engine in a player and write the trace. */
export function runCommand(io: CliIo): CommandModule<object, RunArgs> {
  return {
    command: "run",
    describe: "Play one scenario (or conformance probe) against one engine on the reference host and write the trace (JSONL)",
    builder: (yargs: Argv) =>
      yargs
        .options(runOptions)
        .example("ctxbench run --engine compressor --scenario basic", "play the catalogue's basic scenario, trace in basic.trace.jsonl")
        .example("ctxbench run --engine lcm --scenario my.json --seed 3 --trace out.jsonl", "a scenario file with seed 3")
        .example("ctxbench run --engine lcm --probe discarded-pass --seed 1 --trace probe.jsonl", "the probe a THR-4 repro names")
        .example("ctxbench run --scenario long-session --trace long.jsonl.gz --max-time 1800", "a compressed trace (a long session is ~600 MB as plain JSONL)"),
    handler: (args) => run(io, args),
  };
}

async function run(io: CliIo, args: RunArgs): Promise<void> {
  const seed = seedOf(args.seed);
  if ((args.scenario === undefined) === (args.probe === undefined)) throw new UsageError("name exactly one of --scenario and --probe");
  const scenario = args.scenario === undefined ? null : resolveScenario(io, args.scenario, seed);
  const compactionTimeoutMs = args["compaction-timeout"];
  const maxTimeMs = maxTimeOf(args["max-time"]);
  // Where the run writes is checked (and made) before anything runs: a bad --home or --trace is one line, not a lost run.
  const stem = scenario !== null ? safeFileStem(scenario.name) : `probe-${safeFileStem(args.probe!)}`;
  const target = args.trace ?? `${stem}.trace.jsonl`;
  const traceOut = target === "-" ? null : prepareOutputFile("--trace", target, io.cwd);
  const homeOut = args.home === undefined ? null : prepareOutputDirectory("--home", args.home, io.cwd);
  const kept = homeOut === null ? null : homeOut.path;
  if (kept !== null && existsSync(join(kept, "sessions.db"))) throw new UsageError(`${kept} already holds a session store (sessions.db); give --home an empty or new directory`);
  const created = [...(traceOut?.created ?? []), ...(homeOut?.created ?? [])];
  try {
    const selection = await selectEngine(selectOptions({ cwd: io.cwd, ...engineRequestOf(args) }));
    for (const notice of selection.notices) io.stderr(`note: ${notice}\n`);
    // The players and the host load once the engine is found: a refused one costs only discovery.
    const [{ runStage }, { outputSummary }] = await Promise.all([import("../pipeline/run.ts"), import("../pipeline/assemble.ts")]);
    const sandbox = mkdtempSync(join(tmpdir(), "ctxbench-run-"));
    const home = kept ?? join(sandbox, "run");
    mkdirSync(join(home, "engine"), { recursive: true });
    const source: SourceRef = scenario !== null ? { kind: "scenario", name: scenario.name, seed: scenario.seed } : { kind: "probe", name: args.probe!, seed: seed ?? DEFAULT_SEED };
    const planned: PlannedRun = {
      source,
      ...(scenario !== null ? { scenario } : {}),
      home: join(home, "engine"),
      storePath: join(home, "sessions.db"),
      ...(compactionTimeoutMs !== undefined ? { compactionTimeoutMs } : {}),
    };
    // The one source is bounded by the whole run's bound.
    const bounds = defaultBounds({ maxTimeMs, timeoutMs: maxTimeMs, players: 1 });
    let trace: Trace;
    let engineName: string;
    try {
      const stage = await runStage({ spec: selection.spec, runs: [planned], bounds, isolate: args.isolate, sandbox, env: playerEnv(io.env) });
      for (const notice of stage.engine.notices) io.stderr(`note: ${notice}\n`);
      const printed = outputSummary(stage.output);
      if (printed !== null) io.stderr(`note: ${printed}\n`);
      const outcome = stage.outcomes.values().next().value!;
      if (!outcome.ok) throw new NegativeVerdict(`${outcome.message}; no trace was written`);
      trace = outcome.trace;
      engineName = stage.engine.name;
    } finally {
      rmSync(sandbox, { recursive: true, force: true });
    }
    let tracePath: string | null = null;
    if (traceOut === null) {
      streamTrace(trace, io.stdout);
    } else {
      tracePath = traceOut.path;
      writeFileThrough(tracePath, (path) => writeTraceFile(path, trace));
    }
    const summary = summarize(trace, { scenario: scenario?.name ?? `probe:${source.name}`, seed: source.seed, engine: engineName, trace: tracePath, bounds: appliedBounds(bounds, { runs: true, suites: false }) });
    if (args.json) io.stdout(`${JSON.stringify(summary, null, 2)}\n`);
    else if (target !== "-") io.stdout(renderSummary(summary));
    else io.stderr(renderSummary(summary));
  } catch (error) {
    // A run that did not finish leaves nothing behind: no trace, no directory it made.
    removeCreated(created);
    throw error;
  }
}

function resolveScenario(io: CliIo, value: string, seed: number | undefined): Scenario {
  return scenarioFromArgument(value, io.cwd, seed);
}

function safeFileStem(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, "_");
}

export interface RunSummary {
  scenario: string;
  seed: number;
  engine: string;
  trace: string | null;
  /** The bounds the run was held to. */
  bounds: RunBounds;
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

export function summarize(trace: Trace, head: Pick<RunSummary, "scenario" | "seed" | "engine" | "trace" | "bounds">): RunSummary {
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
