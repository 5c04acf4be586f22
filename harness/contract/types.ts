/** Message, usage and tool types of the plugin contract (OpenAI chat format plus host identity fields). */

export type Role = "system" | "user" | "assistant" | "tool";
export const ROLES: readonly Role[] = ["system", "user", "assistant", "tool"];

export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface TextPart {
  type: "text";
  text: string;
}
export interface ImagePart {
  type: "image_url";
  image_url: { url: string; detail?: string };
}
export type ContentPart = TextPart | ImagePart | { type: string; [key: string]: unknown };
export type MessageContent = string | ContentPart[] | null;

/** Uids of a message's tool calls: one uid per provider id, or a per-occurrence list after a fold. */
export type ToolCallUids = Record<string, string | Array<string | null>>;

export interface Message {
  role: Role | (string & {});
  content?: MessageContent;
  name?: string;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
  /** Stable identity of the logical message (32 lowercase hex); absent before the row exists. */
  message_uid?: string;
  /** Uids of messages the host folded into this one, in text order. */
  _absorbed_message_uids?: string[];
  _tool_call_uids?: ToolCallUids;
  _tool_call_uid?: string;
  [key: string]: unknown;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  input_tokens?: number;
  output_tokens?: number;
  cache_read_tokens?: number;
  cache_write_tokens?: number;
  reasoning_tokens?: number;
  [key: string]: unknown;
}

export interface ToolSchema {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export type MaybePromise<T> = T | Promise<T>;

/** Keyword-only parameters of `compress()` (ARCHITECTURE decision 2). */
export interface CompressOptions {
  force?: boolean;
  memory_context?: string;
  bypass_cooldown?: boolean;
  /** Aborted by the host when the pass times out; the result is then discarded. */
  signal?: AbortSignal;
}

export interface SelectContextOptions {
  conversation_messages?: Message[];
  incoming_message?: Message | null;
  budget_tokens?: number;
}

export interface TurnCompleteInfo {
  turn_id: string;
  task_id: string;
  api_call_count: number;
  interrupted: boolean;
  failed: boolean;
  turn_exit_reason: string | null;
  [key: string]: unknown;
}

export interface SessionStartInfo {
  /** A per-run sandbox directory the engine may keep its files in (upstream: hermes_home). */
  home?: string;
  platform?: string;
  model?: string;
  context_length?: number;
  conversation_id?: string | null;
  boundary_reason?: string;
  old_session_id?: string;
  [key: string]: unknown;
}

export interface UpdateModelOptions {
  model: string;
  context_length: number;
  base_url?: string;
  api_key?: string;
  provider?: string;
  api_mode?: string;
}

export interface ToolCallOptions {
  messages?: Message[];
  [key: string]: unknown;
}

export interface EngineStatus {
  name: string;
  last_prompt_tokens: number;
  threshold_tokens: number;
  context_length: number;
  usage_percent: number;
  compression_count: number;
  [key: string]: unknown;
}

export interface CompressInfo {
  blocked: boolean;
  reason: string | null;
  [key: string]: unknown;
}
