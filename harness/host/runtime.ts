import type { ContextEngine } from "../contract/context-engine.ts";
import type { Message } from "../contract/types.ts";
import type { SimulatedProvider } from "../provider/simulated-provider.ts";
import type { TraceRecorder } from "../trace/recorder.ts";
import type { Scenario, ScenarioSession } from "../../scenarios/format.ts";
import type { CompactionObserver } from "./observers.ts";
import type { PassPool } from "./pool.ts";
import type { HostStore } from "./store-port.ts";

/** One conversation the host plays: a scenario session, or one a host event created. */
export interface SessionRuntime {
  /** The id the scenario's schedule and the trace use. */
  readonly id: string;
  /** The store session currently holding it (changes on rotation and reset). */
  storeId: string;
  readonly script: ScenarioSession | null;
  readonly platform: string;
  /** The live transcript: the restored rows plus anything appended since. */
  history: Message[];
  /** on_session_start was called and on_session_end not yet. */
  open: boolean;
  compacting: boolean;
  timeoutNextCompaction: boolean;
  /** Counts store sessions minted for this conversation (rotation, reset). */
  generation: number;
  /** A pass committed and no provider usage has arrived since: the pre-API and post-tool gates wait for real figures. */
  awaitingRealUsage: boolean;
  /** Compaction passes this turn (turn start, pre-API, post-tool), bounded like upstream's max_attempts. */
  turnPasses: number;
  /** A pass this turn made too little progress: the pre-API and post-tool gates stay shut until the next turn. */
  progressBlocked: boolean;
}

export interface HostSettings {
  home: string;
  compactionTimeoutMs: number;
  compactionMode: "in-place" | "rotation";
  memoryContext: string | null;
  /** Tools the host itself owns; an engine tool with one of these names is skipped (TOOL-3). */
  hostTools: readonly string[];
}

/** Everything one play shares across sessions. */
export interface HostRuntime {
  readonly scenario: Scenario;
  readonly engine: ContextEngine;
  readonly recorder: TraceRecorder;
  readonly provider: SimulatedProvider;
  readonly store: HostStore;
  readonly pool: PassPool;
  readonly settings: HostSettings;
  readonly sessions: Map<string, SessionRuntime>;
  /** Names of the engine's tools the host offers (collisions removed). */
  engineTools: Set<string>;
  /** Tool names offered in every request. */
  offeredTools: string[];
  /** Deterministic ids for turn_id / task_id. */
  readonly mintId: () => string;
  /** Simulated time in ms (slow replies advance it; nothing sleeps). */
  clockMs: number;
  readonly signal: AbortSignal | undefined;
  /** Recorders watching each compaction pass (e.g. THR-4's sandbox watch). */
  readonly observers: readonly CompactionObserver[];
  /** Compaction passes started so far in this run; numbers each pass. */
  passCount: number;
}

/** The tools a host of this kind ships with; scripted calls to them are answered from the script. */
export const DEFAULT_HOST_TOOLS: readonly string[] = [
  "clarify",
  "delegate_task",
  "memory",
  "patch",
  "read_file",
  "search_files",
  "terminal",
  "web_extract",
  "web_search",
  "write_file",
];
