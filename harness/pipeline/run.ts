import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "../util/errors.ts";
import type { RunOutcome } from "../conformance/evaluate.ts";
import { sourceKey, sourceLabel, type SourceRef } from "../conformance/sources.ts";
import type { EngineInfo, EngineSpec } from "../plugins/spec.ts";
import { inProcessPlayer, PlayerProcess, type PlayerConnection, type PlayOutcome } from "../player/client.ts";
import { addCaptured, type CapturedStream } from "../player/output.ts";
import type { IntegrityFinding, PlayCommand, SourceStats } from "../player/protocol.ts";
import { catalogueScenario } from "../../scenarios/catalogue/cache.ts";
import { catalogueTextTokens } from "../../scenarios/catalogue/text-tokens.ts";
import type { Scenario } from "../../scenarios/format.ts";
import type { Bounds } from "./bounds.ts";

/** A run to record, with what its play command carries beyond the source. */
export interface PlannedRun {
  source: SourceRef;
  /** The scenario, when it is not the catalogue's (a file given to `ctxbench run`). */
  scenario?: Scenario;
  home?: string;
  storePath?: string;
  compactionTimeoutMs?: number;
}

export interface RunStageOptions {
  spec: EngineSpec;
  runs: readonly PlannedRun[];
  bounds: Bounds;
  isolate: boolean;
  /** The run's sandbox root (the players' working directories and the engines' homes go here). */
  sandbox: string;
  env: NodeJS.ProcessEnv;
  /** When the run's bound strikes, when a longer run (compare) holds this stage to its own bound; default now + bounds.maxTimeMs. */
  deadline?: number;
  /** Called as each run is settled (progress lines), with the number of runs not handed to a player yet. */
  onRun?: (run: PlannedRun, outcome: RunOutcome, waiting: number) => void;
}

export interface RunStageResult {
  engine: EngineInfo;
  /** By sourceKey. */
  outcomes: Map<string, RunOutcome>;
  /** Intrinsics the engine replaced, as players reported them. */
  intrinsics: IntegrityFinding[];
  /** Frames on the players' channels that failed authentication. */
  forgedFrames: number;
  output: { stdout: CapturedStream; stderr: CapturedStream };
  /** Players started (a bound that strikes, a death or a tainted player costs a fresh one). */
  playersStarted: number;
  /** What the recorded runs cost on the channel: frames' bytes, events, distinct messages, the players' play and shipping time. */
  channel: SourceStats;
}

/** The engine could not be loaded in a player: a one-line usage error (exit 2). */
export class EngineLoadError extends UsageError {}

/**
 * Record every run in players: pull scheduling over `bounds.players` players, each run timed by
 * this process (a bound that strikes stops the player, and a fresh one takes the next run), the
 * whole stage bounded by `maxTimeMs`. A player that dies while loading, or does not get ready in
 * time, ends the stage with an EngineLoadError. Engine code never runs here (unless `isolate` is
 * false, for a debugger).
 */
export async function runStage(options: RunStageOptions): Promise<RunStageResult> {
  const { bounds } = options;
  const deadline = options.deadline ?? performance.now() + bounds.maxTimeMs;
  const queue = [...options.runs];
  const scenarios = new Map<PlannedRun, Scenario | null>();
  const scenarioFor = (run: PlannedRun): Scenario | null => {
    if (!scenarios.has(run)) scenarios.set(run, scenarioOf(run));
    return scenarios.get(run)!;
  };
  const textTokens = new Map<PlannedRun, number[] | undefined>();
  const textTokensFor = (run: PlannedRun): number[] | undefined => {
    if (!textTokens.has(run)) textTokens.set(run, textTokensOf(run, scenarioFor(run)));
    return textTokens.get(run);
  };
  const outcomes = new Map<string, RunOutcome>();
  const intrinsics: IntegrityFinding[] = [];
  const streams: Array<{ stdout: CapturedStream; stderr: CapturedStream }> = [];
  let forgedFrames = 0;
  const channel: SourceStats = { events: 0, messages: 0, bytes: 0, playMs: 0, shipMs: 0 };
  let engine: EngineInfo | null = null;
  let started = 0;
  let failure: EngineLoadError | null = null;
  /** Why a fresh player could not load an engine that an earlier one loaded, when no bound struck. */
  const reload: { failure: string | null } = { failure: null };
  const live = new Set<PlayerConnection>();
  let struck = false;
  let ordered: Promise<void> = Promise.resolve();
  const maxTimer = setTimeout(() => {
    struck = true;
    for (const connection of live) connection.kill();
  }, Math.max(1, deadline - performance.now()));

  const settle = (run: PlannedRun, outcome: RunOutcome) => {
    outcomes.set(sourceKey(run.source), outcome);
    options.onRun?.(run, outcome, queue.length);
  };
  const retire = async (connection: PlayerConnection, kill: boolean) => {
    if (kill) connection.kill();
    await connection.close();
    live.delete(connection);
    forgedFrames += connection.forgedFrames;
    streams.push(connection.output());
  };
  const start = async (): Promise<PlayerConnection | null> => {
    const index = started++;
    const cwd = join(options.sandbox, `player-${index}`);
    mkdirSync(join(cwd, "work"), { recursive: true });
    const plan = { engine: options.spec, sandbox: join(cwd, "runs"), limits: bounds.limits };
    const connection = options.isolate ? new PlayerProcess({ plan, cwd: join(cwd, "work"), env: options.env, heapMb: bounds.heapMb }) : await inProcessPlayer(plan);
    live.add(connection);
    const ready = await connection.ready(bounds.loadTimeoutMs, { at: deadline, message: "was still loading when the run's bound struck" });
    if (!ready.ok || ready.engine === null) {
      await retire(connection, true);
      const late = struck || performance.now() >= deadline;
      const message = ready.ok ? "loaded no engine" : ready.message;
      if (engine !== null) {
        // The engine loaded in an earlier player: a fresh one that does not get ready (the bound
        // struck while it loaded, or the engine loads only once) costs the runs left, not the verdict.
        if (!late) reload.failure ??= message;
        return null;
      }
      if (failure === null) failure = new EngineLoadError(loadFailureMessage(options.spec, message, late, bounds));
      return null;
    }
    engine ??= ready.engine;
    if (ready.integrity.length > 0) {
      intrinsics.push(...ready.integrity);
      // Nothing it records can be trusted: the harness's own code would run on the replacements.
      const targets = ready.integrity.map((finding) => finding.target).join(", ");
      for (const run of queue.splice(0)) settle(run, { ok: false, outcome: "error", message: `${sourceLabel(run.source)}: not played: the engine replaced ${targets} when it was loaded, so nothing recorded with it can be trusted`, durationMs: 0 });
      await retire(connection, true);
      return null;
    }
    return connection;
  };

  const lane = async () => {
    let connection: PlayerConnection | null = null;
    while (queue.length > 0 && failure === null) {
      if (struck) break;
      connection ??= await start();
      if (connection === null) break;
      if (queue[0]?.source.kind !== "probe") await ordered;
      if (struck || failure !== null) break;
      const run = queue.shift();
      if (run === undefined) break;
      const label = sourceLabel(run.source);
      const scenario = scenarioFor(run);
      const startedAt = performance.now();
      const struckMessage = `${label} was still playing when the run's bound (--max-time ${seconds(bounds.maxTimeMs)}) struck; ctxbench stopped the player running it`;
      const timeoutMessage = `${label} did not finish within ${bounds.timeoutMs} ms: the engine did not return control, or a hook never settled, so ctxbench stopped the player running it and went on without it`;
      const outcome: PlayOutcome = await connection.play(playRequest(run, scenario, textTokensFor(run)), bounds.timeoutMs, timeoutMessage, { at: deadline, message: struckMessage });
      const durationMs = performance.now() - startedAt;
      if (outcome.integrity.length > 0) intrinsics.push(...outcome.integrity);
      if (outcome.ok) {
        for (const key of Object.keys(channel) as Array<keyof SourceStats>) channel[key] += outcome.stats[key];
        settle(run, { ok: true, trace: outcome.trace, scenario, durationMs });
      } else {
        const message = struck && outcome.outcome !== "timeout" ? struckMessage : outcome.outcome === "timeout" ? outcome.message : playerError(label, outcome.message);
        settle(run, { ok: false, outcome: struck ? "timeout" : outcome.outcome, message, durationMs });
      }
      if (!connection.alive || outcome.integrity.length > 0) {
        // A player that timed out, died, broke the protocol or was tainted is replaced for the next run.
        await retire(connection, true);
        connection = null;
      }
    }
    if (connection !== null) await retire(connection, false);
  };

  try {
    const lanes = Math.max(1, Math.min(bounds.players, options.runs.length));
    const playing = Promise.all(Array.from({ length: lanes }, () => lane()));
    // The probes go first at once; the scenarios (and their texts' counts) are built one per turn
    // of the event loop while the players load and play the probes (a lane waits for them before
    // its first scenario).
    ordered = (async () => {
      probesFirst(queue);
      for (const run of [...queue]) {
        if (run.source.kind === "probe") continue;
        await new Promise((resolve) => setImmediate(resolve));
        scenarioFor(run);
        await new Promise((resolve) => setImmediate(resolve));
        textTokensFor(run);
      }
      longestFirst(queue, scenarioFor);
    })();
    await playing;
  } finally {
    clearTimeout(maxTimer);
    for (const connection of live) connection.kill();
  }
  if (failure !== null) throw failure;
  const boundStruck = struck || performance.now() >= deadline;
  for (const run of queue.splice(0)) {
    const label = sourceLabel(run.source);
    if (reload.failure !== null && !boundStruck) settle(run, { ok: false, outcome: "error", message: `${label}: not played: a fresh player could not load the engine again: ${reload.failure.replace(/^the player /, "")}`, durationMs: 0 });
    else settle(run, { ok: false, outcome: "timeout", message: `${label}: not played: the run's bound (--max-time ${seconds(bounds.maxTimeMs)}) struck first`, durationMs: 0 });
  }
  if (engine === null) throw new EngineLoadError(loadFailureMessage(options.spec, "no player got ready", struck, bounds));
  return {
    engine,
    outcomes,
    intrinsics,
    forgedFrames,
    output: { stdout: addCaptured(streams.map((s) => s.stdout)), stderr: addCaptured(streams.map((s) => s.stderr)) },
    playersStarted: started,
    channel,
  };
}

/**
 * Probes first, in their order (they are short, and the checks that read a long scenario read
 * probes too: with the probes in, such a check is judged as soon as its scenario is).
 */
export function probesFirst(queue: PlannedRun[]): void {
  queue.sort((a, b) => Number(a.source.kind !== "probe") - Number(b.source.kind !== "probe"));
}

/**
 * Orders the queue in place: probes first (as probesFirst), then the scenarios that cost the most
 * to play, so the stage does not end with one player on a long run and the other idle. Runs of
 * equal weight keep their order.
 */
export function longestFirst(queue: PlannedRun[], scenarioFor: (run: PlannedRun) => Scenario | null): void {
  const weight = new Map(queue.map((run) => [run, run.source.kind === "probe" ? Number.POSITIVE_INFINITY : playCost(scenarioFor(run))]));
  queue.sort((a, b) => (weight.get(a) === weight.get(b) ? 0 : weight.get(b)! > weight.get(a)! ? 1 : -1));
}

/**
 * A scenario's play time in the messages it makes (a user message a turn, an assistant message a
 * step, a tool result a call): a message costs about as much as 7,000 characters of its text (the
 * host's requests, the store and the trace scale with both). Fitted to the catalogue's plays of
 * truncate at seed 1 on 8 December (concurrent-sessions 745 ms for 1,140 messages and 1.35 M
 * characters, huge-tool-outputs 91 ms for 58 messages and 0.86 M characters, content-rewrite 102 ms
 * for 244 messages). Weighed by scheduled turns instead, parallel-tool-calls (36 turns of several
 * calls each, 301 ms) came last, and the stage ended with one player on it for about 0.2 s.
 */
export function playCost(scenario: Scenario | null): number {
  return scenario === null ? 0 : scenarioMessages(scenario) + textCharacters(scenario) / 7_000;
}

/** The messages a scenario's turns make when played. */
export function scenarioMessages(scenario: Scenario): number {
  let messages = 0;
  for (const session of scenario.sessions) {
    for (const turn of session.turns) {
      messages += 1;
      for (const step of turn.steps) messages += 1 + (step.toolCalls?.length ?? 0);
    }
  }
  return messages;
}

function textCharacters(value: unknown): number {
  if (typeof value === "string") return value.length;
  if (value === null || typeof value !== "object") return 0;
  let total = 0;
  if (Array.isArray(value)) for (const item of value) total += textCharacters(item);
  else for (const key in value) total += textCharacters((value as Record<string, unknown>)[key]);
  return total;
}

/**
 * A catalogue scenario travels built (the checks read the parent's copy anyway, so the player need
 * not generate it again), with its texts' token counts when this build has them.
 */
export function playRequest(run: PlannedRun, scenario: Scenario | null, textTokens?: number[]): Omit<PlayCommand, "type" | "id"> {
  return {
    source: run.source,
    ...(scenario !== null ? { scenario: scenario as unknown as Record<string, unknown> } : {}),
    ...(scenario !== null && textTokens !== undefined ? { textTokens } : {}),
    ...(run.home !== undefined ? { home: run.home } : {}),
    ...(run.storePath !== undefined ? { storePath: run.storePath } : {}),
    ...(run.compactionTimeoutMs !== undefined ? { compactionTimeoutMs: run.compactionTimeoutMs } : {}),
  };
}

/** The scenario played and read by the checks beside its trace: the given one, or the catalogue's, built here (or read from the disk cache). */
export function scenarioOf(run: PlannedRun): Scenario | null {
  if (run.source.kind !== "scenario") return null;
  if (run.scenario !== undefined) return run.scenario;
  try {
    return catalogueScenario(run.source.name, run.source.seed);
  } catch {
    return null; // not the catalogue's: the player says so as the run's error
  }
}

/** The token counts of a catalogue scenario's texts (counted here once per build, then read from the disk cache); none for a scenario file. */
function textTokensOf(run: PlannedRun, scenario: Scenario | null): number[] | undefined {
  if (run.source.kind !== "scenario" || run.scenario !== undefined || scenario === null) return undefined;
  return catalogueTextTokens(run.source.name, run.source.seed, scenario);
}

function playerError(label: string, message: string): string {
  if (message.startsWith(label)) return message;
  return `${label}: the player process running it ${message}`;
}

/** One line saying why an engine could not be loaded in a player (the bound that struck, how the player ended). */
export function loadFailureMessage(spec: EngineSpec, message: string, struck: boolean, bounds: Pick<Bounds, "maxTimeMs">): string {
  if (struck) return `context engine "${spec.name}" was still loading when the run's bound (--max-time ${seconds(bounds.maxTimeMs)}) struck`;
  const text = message.replace(/^the player /, "");
  if (/^(exited|could not be started|broke the protocol)/.test(text)) return `context engine "${spec.name}": the player loading it ${text}${/^exited \(code 0/.test(text) ? " (does the engine's module call process.exit when it is imported?)" : ""}`;
  if (/^did not finish loading/.test(text)) return `context engine "${spec.name}": the player ${text}`;
  return text.startsWith(`context engine "${spec.name}"`) ? text : `context engine "${spec.name}" failed to load: ${text}`;
}

export const seconds = (ms: number): string => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);
