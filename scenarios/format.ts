import type { ContentPart, Message, ToolCallUids } from "../harness/contract/types.ts";

/**
 * The scenario format: a seeded, JSON-serialisable script the reference host plays against one
 * engine. Everything an engine sees comes from here, so the same scenario gives the same trace.
 */
export const SCENARIO_FORMAT_VERSION = 1;

export interface Scenario {
  formatVersion: typeof SCENARIO_FORMAT_VERSION;
  /** Catalogue name, or "imported:<source>" / "generated". */
  name: string;
  description: string;
  seed: number;
  /** Rule IDs (RULES.md) this scenario exercises. */
  rules: string[];
  model: string;
  context_length: number;
  sessions: ScenarioSession[];
  /** The order in which turns and host events play; sessions interleave through it. */
  schedule: ScheduleStep[];
  canaries: Canary[];
  secrets: FakeSecret[];
  /** Start from a store written by an older build (schema v30) instead of an empty v31 store. */
  legacyStore?: LegacyStore;
  /** Host settings this scenario needs (e.g. a short compaction timeout). */
  host?: ScenarioHostSettings;
}

export interface ScenarioSession {
  id: string;
  systemPrompt: string;
  platform?: string;
  turns: ScenarioTurn[];
  /** Imported sessions: the recorded uid of the system message. */
  systemMessageUid?: string;
}

export interface ScenarioTurn {
  /** The user's message for this turn. */
  user: string | ContentPart[];
  /** One entry per provider response, in order; the last one normally has no tool calls. */
  steps: AssistantStep[];
  taskId?: string;
  /** Imported sessions: the recorded uid of the user message. */
  userMessageUid?: string;
}

export interface AssistantStep {
  content: string | null;
  toolCalls?: ScriptedToolCall[];
  /** A provider fault raised instead of (or, for transient faults, before) this response. */
  fault?: ProviderFault;
  /** Imported sessions: the recorded uid of the assistant message and its `_tool_call_uids`. */
  messageUid?: string;
  toolCallUids?: ToolCallUids;
}

export interface ScriptedToolCall {
  /** The provider-facing id, exactly as the model emitted it (may repeat). */
  id: string;
  name: string;
  /** The arguments as the model emitted them (a JSON string, normally). */
  arguments: string;
  /** What the (non-engine) tool answers. */
  result: string | ContentPart[];
  /** Imported sessions: the recorded uids of the result message (`message_uid`, `_tool_call_uid`). */
  resultMessageUid?: string;
  resultToolCallUid?: string;
  /** Imported sessions: the transcript holds no result for this call (e.g. an interrupted turn). */
  resultMissing?: boolean;
}

export type ProviderFault =
  | { kind: "transient"; failures: number }
  | { kind: "content-policy" }
  | { kind: "terminal" }
  | { kind: "context-overflow" }
  | { kind: "interrupted" }
  | { kind: "slow"; delayMs: number };

export type ScheduleStep =
  | { kind: "turn"; session: string; turn: number }
  | { kind: "event"; session: string; event: HostEvent };

export type HostEvent =
  /** Manual `/compress [focus]`: force=true. */
  | { type: "compress"; focus_topic?: string }
  /** Close the store and the session, reopen, restore the history. */
  | { type: "restart" }
  /** Copy the session's active rows into a new session (uids kept). */
  | { type: "branch"; newSession: string }
  /** Drop the active rows after the first `keepMessages`. */
  | { type: "rewind"; keepMessages: number }
  /** Export the session to JSON and import it back (into a new session id). */
  | { type: "export-import"; newSession: string }
  /** Compact by rotation into a child session instead of in place. */
  | { type: "rotate"; newSession: string }
  /** An older build (no identity columns) appends rows; the v31 insert trigger mints their uids. */
  | { type: "legacy-write"; messages: Message[] }
  /** Rewrite the content of an existing row under its uid (persist override / sanitizer rewrite). */
  | { type: "content-rewrite"; messageIndex: number; content: string }
  /** Re-append an edited copy of an active row next to it, so two active rows share one uid. */
  | { type: "duplicate-row"; messageIndex: number; content: string }
  /** The next compaction pass of this session times out on the host side. */
  | { type: "timeout-next-compaction" }
  /** `/new` or `/reset`: on_session_reset. */
  | { type: "reset" }
  /** A session boundary: on_session_end. */
  | { type: "end" };

export interface Canary {
  session: string;
  topic: string;
  /** A unique fact, e.g. "the deploy key for orion is KX-48213". */
  fact: string;
  /** The unique token inside the fact that detection looks for. */
  token: string;
  /** Turn index (within its session) whose user message plants it. */
  turn: number;
}

export interface FakeSecret {
  session: string;
  kind: string;
  value: string;
  turn: number;
}

export interface LegacyStore {
  /** Rows per session written with the v30 layout before the first open. */
  sessions: Array<{ id: string; messages: Message[] }>;
  /** Backfill slice size and per-open budget for the upgrade. */
  backfillChunk: number;
  backfillBudgetMs: number;
  /** How many times the host reopens the store before play starts. */
  opens: number;
}

export interface ScenarioHostSettings {
  compactionTimeoutMs?: number;
  /** "in-place" (default) or "rotation". */
  compactionMode?: "in-place" | "rotation";
  /** Maximum concurrent compaction passes across sessions. */
  poolSize?: number;
}
