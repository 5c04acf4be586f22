import type { NativeCallFacts } from "../contract/native.ts";
import type { Message, Usage } from "../contract/types.ts";
import type { HostEvent } from "../../scenarios/format.ts";

/**
 * The event history of one run (ARCHITECTURE decision 5: record first, check after). Every
 * engine call and every provider request is an event; checks are pure functions over them.
 * Durations live only in `durationMs` fields so the rest of a trace is byte-identical per seed.
 */
export type TraceEvent =
  | RunStartEvent
  | EngineCallEvent
  | RequestEvent
  | ResponseEvent
  | CompactionEvent
  | ToolCallEvent
  | HostEventRecord
  | TurnEndEvent
  | WarningEvent
  | SandboxWatchEvent
  | RunEndEvent;

interface EventBase {
  /** Position in the trace, from 0. */
  seq: number;
  /** The session the event belongs to, or null for run-level events. */
  session: string | null;
}

export interface RunStartEvent extends EventBase {
  type: "run-start";
  scenario: string;
  seed: number;
  engine: { name: string; version: string | null };
  context_length: number;
}

/** The engine's budget state, read right after a call returns. */
export interface EngineStateSnapshot {
  last_prompt_tokens: number;
  last_completion_tokens: number;
  last_total_tokens: number;
  threshold_tokens: number;
  context_length: number;
  compression_count: number;
}

export type EngineHook =
  | "update_model"
  | "on_session_start"
  | "update_from_response"
  | "should_compress"
  | "should_compress_preflight"
  | "should_compress_info"
  | "compress"
  | "prune_tool_results_only"
  | "has_content_to_compress"
  | "select_context"
  | "on_turn_complete"
  | "get_tool_schemas"
  | "handle_tool_call"
  | "on_session_end"
  | "on_session_reset"
  | "clone_for_agent"
  | "get_status";

export type ResultKind = "value" | "null" | "undefined" | "list" | "non-list" | "boolean" | "string" | "error" | "timeout" | "skipped";

export interface ValueDigest {
  /** sha256 of the canonical JSON, first 16 hex. */
  digest: string;
  /** Length of the canonical JSON in characters. */
  size: number;
}

export interface EngineCallEvent extends EventBase {
  type: "engine-call";
  hook: EngineHook;
  args: ValueDigest[];
  resultKind: ResultKind;
  result: ValueDigest | null;
  error: string | null;
  /** Whether the call returned a thenable the host awaited. */
  async: boolean;
  stateAfter: EngineStateSnapshot;
  /** Values a check needs verbatim, per hook (e.g. should_compress's argument and answer). */
  detail?: Record<string, unknown>;
  /** For an engine behind the engine protocol: what the call showed beyond its value (contract/native.ts). */
  native?: NativeCallFacts;
  durationMs: number;
}

export type SelectionOutcome = "skipped-inherited" | "no-engine" | "none" | "replaced" | "fail-open-error" | "fail-open-invalid";

export interface RequestEvent extends EventBase {
  type: "request";
  turn: number;
  /** 0 for the first try, then 1, 2, … for retries of the same provider call. */
  attempt: number;
  /** The messages exactly as sent to the provider. */
  messages: Message[];
  tools: string[];
  selection: SelectionOutcome;
  /** Indices into `messages` that carry a cache-control breakpoint. */
  cacheBreakpoints: number[];
  promptTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

export interface ResponseEvent extends EventBase {
  type: "response";
  turn: number;
  attempt: number;
  usage: Usage | null;
  /** "transient", "overflow", "content-policy", "terminal", "interrupted", or "slow" (answered, late); null otherwise. */
  fault: string | null;
  toolCalls: string[];
}

export type CompactionTrigger = "preflight" | "engine-preflight" | "pre-api" | "post-tool" | "overflow" | "manual";
export type CompactionOutcome =
  | "committed"
  | "refused-empty"
  | "refused-unchanged"
  | "refused-grew"
  | "refused-invalid"
  | "timeout"
  | "error"
  | "busy";

export interface CompactionEvent extends EventBase {
  type: "compaction";
  /** The pass's number in this run (null for a pass refused as busy before it started). */
  pass: number | null;
  trigger: CompactionTrigger;
  outcome: CompactionOutcome;
  focus_topic: string | null;
  /** The snapshot the engine was given (with identity fields). */
  input: Message[];
  /** What the engine returned, when it returned a list. */
  output: Message[] | null;
  tokensBefore: number;
  tokensAfter: number | null;
  mode: "in-place" | "rotation";
  error: string | null;
  durationMs: number;
}

export interface ToolCallEvent extends EventBase {
  type: "tool-call";
  turn: number;
  id: string;
  name: string;
  routedTo: "engine" | "script";
  arguments: string;
  result: string;
}

export interface HostEventRecord extends EventBase {
  type: "host-event";
  event: HostEvent;
  /** The session's restored history after the event, where the event changes it. */
  history?: Message[];
}

export interface TurnEndEvent extends EventBase {
  type: "turn-end";
  turn: number;
  /**
   * "completed", "interrupted", "content_policy_blocked", "provider_terminal_failure",
   * "provider_retries_exhausted", "context_overflow" or "context_compression_timeout".
   */
  exitReason: string;
  usage: Usage | null;
  apiCalls: number;
  onTurnCompleteCalled: boolean;
}

export interface WarningEvent extends EventBase {
  type: "warning";
  message: string;
  rule: string | null;
}

/**
 * THR-4's sandbox watch, written by the standard recorder during the play: the engine's sandbox
 * files (relative path → content digest) when the host started a pass it later discarded, and
 * once the engine's work had settled (null when it had not settled within the host's grace).
 */
export interface SandboxWatchEvent extends EventBase {
  type: "sandbox-watch";
  /** The discarded pass, as numbered on its compaction event. */
  pass: number;
  before: Record<string, string>;
  after: Record<string, string> | null;
}

export interface RunEndEvent extends EventBase {
  type: "run-end";
  /** Each session's final restored history. */
  histories: Record<string, Message[]>;
}

export type Trace = TraceEvent[];
