import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { ContextEngine } from "../contract/context-engine.ts";
import type { Message } from "../contract/types.ts";
import { SimulatedProvider } from "../provider/simulated-provider.ts";
import { createSeededMinter } from "../store/uid.ts";
import type { Trace } from "../trace/events.ts";
import { TraceRecorder } from "../trace/recorder.ts";
import type { Scenario, ScheduleStep } from "../../scenarios/format.ts";
import { cloneMessages } from "./clone.ts";
import { applyHostEvent } from "./host-events.ts";
import { endSession, notifyHook, restoredSession, startSession, systemMessage } from "./lifecycle.ts";
import { isPersistedMessage } from "./persisted-message.ts";
import { isWireTwin } from "./wire-twins.ts";
import type { CompactionObserver } from "./observers.ts";
import { PassPool } from "./pool.ts";
import { DEFAULT_HOST_TOOLS, type HostRuntime, type SessionRuntime } from "./runtime.ts";
import { SqliteHostStore } from "./sqlite-store.ts";
import { offerEngineTools } from "./tools.ts";
import { playTurn } from "./turn.ts";

export interface PlayOptions {
  /** Sandbox directory for the engine (upstream: hermes_home); the store lives here unless storePath says otherwise. */
  home: string;
  storePath?: string;
  /** The store is deleted after the play, so it skips what only durability needs (see SqliteHostStoreOptions.scratch). */
  scratchStore?: boolean;
  /** Host timeout of one compaction pass (default: the scenario's, else 120 s as upstream). */
  compactionTimeoutMs?: number;
  /** Concurrent compaction passes across sessions (default: the scenario's, else 4 as upstream). */
  poolSize?: number;
  recorder?: TraceRecorder;
  /** Stops scheduling further steps; the run still ends every session. */
  signal?: AbortSignal;
  /** Memory-provider context handed to compress() (redacted and capped as upstream). */
  memoryContext?: string;
  /** The engine's version as its plugin.yaml declares it, for the run-start event. */
  engineVersion?: string | null;
  /** Recorders that watch each compaction pass and write their own events into the trace. */
  observers?: readonly CompactionObserver[];
}

export interface PlayResult {
  trace: Trace;
  /** Each conversation's final restored history, by scenario session id. */
  histories: Record<string, Message[]>;
}

export const DEFAULT_COMPACTION_TIMEOUT_MS = 120_000;
export const DEFAULT_POOL_SIZE = 4;
/** Row timestamps start here (seconds) and follow the simulated clock, so traces are reproducible. */
const EPOCH_SECONDS = 1_767_225_600;
/** Simulated time one schedule step takes, so rows get distinct timestamps. */
const STEP_MS = 1000;

/**
 * Play a scenario against one engine: every session's turns and host events, in schedule order,
 * with sessions interleaving on the one engine (each session's steps run in order; different
 * sessions overlap wherever one of them awaits). Returns the trace and the restored histories.
 */
export async function playScenario(scenario: Scenario, engine: ContextEngine, options: PlayOptions): Promise<PlayResult> {
  mkdirSync(options.home, { recursive: true });
  const runtime = createRuntime(scenario, engine, options);
  const { recorder } = runtime;
  try {
    recorder.record({
      type: "run-start",
      session: null,
      scenario: scenario.name,
      seed: scenario.seed,
      engine: { name: engineName(engine), version: options.engineVersion ?? engineVersion(engine) },
      context_length: scenario.context_length,
    });
    await notifyHook(runtime, null, "update_model", [{ model: scenario.model, context_length: scenario.context_length }]);
    await offerEngineTools(runtime);
    const created = sessionsCreatedByEvents(scenario.schedule);
    for (const script of scenario.sessions) {
      if (created.has(script.id)) continue;
      const session = openScriptedSession(runtime, script.id);
      await startSession(runtime, session);
    }
    await playSchedule(runtime, scenario.schedule);
    for (const session of runtime.sessions.values()) await endSession(runtime, session);
    const histories: Record<string, Message[]> = {};
    for (const session of runtime.sessions.values()) histories[session.id] = runtime.store.restore(session.storeId);
    recorder.record({ type: "run-end", session: null, histories: cloneHistories(histories) });
    return { trace: recorder.events, histories };
  } finally {
    runtime.store.close();
  }
}

function createRuntime(scenario: Scenario, engine: ContextEngine, options: PlayOptions): HostRuntime {
  const clock = { ms: 0 };
  const runtime: HostRuntime = {
    scenario,
    engine,
    recorder: options.recorder ?? new TraceRecorder(),
    provider: new SimulatedProvider({ contextLength: scenario.context_length }),
    store: SqliteHostStore.open(
      {
        path: options.storePath ?? join(options.home, "sessions.db"),
        mintUid: createSeededMinter(scenario.seed),
        now: () => EPOCH_SECONDS + Math.floor(clock.ms / 1000),
        ...(options.scratchStore === true ? { scratch: true } : {}),
      },
      scenario.legacyStore,
    ),
    pool: new PassPool(options.poolSize ?? scenario.host?.poolSize ?? DEFAULT_POOL_SIZE),
    settings: {
      home: options.home,
      compactionTimeoutMs: options.compactionTimeoutMs ?? scenario.host?.compactionTimeoutMs ?? DEFAULT_COMPACTION_TIMEOUT_MS,
      compactionMode: scenario.host?.compactionMode ?? "in-place",
      memoryContext: options.memoryContext ?? null,
      hostTools: DEFAULT_HOST_TOOLS,
    },
    sessions: new Map(),
    engineTools: new Set(),
    offeredTools: [...DEFAULT_HOST_TOOLS],
    mintId: createSeededMinter(BigInt(scenario.seed) ^ 0x5eed_7a5cn),
    get clockMs() {
      return clock.ms;
    },
    set clockMs(value: number) {
      clock.ms = value;
    },
    signal: options.signal,
    observers: options.observers ?? [],
    passCount: 0,
  };
  runtime.recorder.memoizeDigests((value) => isPersistedMessage(value) || isWireTwin(value));
  return runtime;
}

/** A scenario session: its stored rows (a legacy store may hold some) or a fresh system prompt. */
function openScriptedSession(runtime: HostRuntime, id: string): SessionRuntime {
  const script = runtime.scenario.sessions.find((candidate) => candidate.id === id) ?? null;
  let history = runtime.store.restore(id);
  if (history.length === 0 && script !== null) {
    const system = systemMessage(script.systemPrompt);
    if (script.systemMessageUid !== undefined) system.message_uid = script.systemMessageUid;
    runtime.store.append(id, [system]);
    history = runtime.store.restore(id);
  }
  const session = restoredSession(runtime, id, "cli", script, history);
  runtime.sessions.set(id, session);
  return session;
}

/** One lane per session: its steps run in order, lanes run side by side. */
async function playSchedule(runtime: HostRuntime, schedule: readonly ScheduleStep[]): Promise<void> {
  const lanes = new Map<string, Promise<void>>();
  for (const step of schedule) {
    if (runtime.signal?.aborted === true) break;
    const previous = lanes.get(step.session) ?? Promise.resolve();
    const next = previous.then(() => playStep(runtime, step));
    lanes.set(step.session, next);
    const created = createdSession(step);
    if (created !== null) lanes.set(created, next);
  }
  await Promise.all(lanes.values());
}

/** The session a branch, export-import or rotate event brings into being, if the step is one. */
function createdSession(step: ScheduleStep): string | null {
  if (step.kind !== "event") return null;
  const event = step.event;
  return event.type === "branch" || event.type === "export-import" || event.type === "rotate" ? event.newSession : null;
}

function sessionsCreatedByEvents(schedule: readonly ScheduleStep[]): Set<string> {
  const out = new Set<string>();
  for (const step of schedule) {
    const created = createdSession(step);
    if (created !== null) out.add(created);
  }
  return out;
}

async function playStep(runtime: HostRuntime, step: ScheduleStep): Promise<void> {
  if (runtime.signal?.aborted === true) return;
  runtime.clockMs += STEP_MS;
  const session = runtime.sessions.get(step.session);
  if (session === undefined) throw new Error(`schedule names unknown session "${step.session}"`);
  if (step.kind === "event") {
    await applyHostEvent(runtime, session, step.event);
    return;
  }
  const turn = session.script?.turns[step.turn];
  if (turn === undefined) throw new Error(`session "${step.session}" has no turn ${step.turn}`);
  if (!session.open) await startSession(runtime, session);
  await playTurn(runtime, session, step.turn, turn);
}

function cloneHistories(histories: Record<string, Message[]>): Record<string, Message[]> {
  const out: Record<string, Message[]> = {};
  for (const [id, messages] of Object.entries(histories)) out[id] = cloneMessages(messages);
  return out;
}

function engineName(engine: ContextEngine): string {
  try {
    return String(engine.name);
  } catch {
    return "(unreadable)";
  }
}

function engineVersion(engine: ContextEngine): string | null {
  const version = (engine as unknown as { version?: unknown }).version;
  return typeof version === "string" ? version : null;
}
