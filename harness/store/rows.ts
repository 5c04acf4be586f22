import type { Message, MessageContent, ToolCall } from "../contract/types.ts";
import { StoreInputError } from "./errors.ts";
import {
  decodeToolCallUids,
  decodeUidList,
  encodeToolCallUidColumn,
  encodeUidList,
  uidList,
} from "./identity-json.ts";
import { jsonUnsafeReason } from "./json-safety.ts";
import { uidOrNull } from "./uid.ts";

/** One `messages` row as SQLite returns it. */
export interface MessageRow {
  id: number;
  session_id: string;
  role: string;
  content: string | null;
  tool_call_id: string | null;
  tool_calls: string | null;
  tool_name: string | null;
  timestamp: number;
  token_count: number | null;
  finish_reason: string | null;
  reasoning: string | null;
  display_kind: string | null;
  display_metadata: string | null;
  active: number;
  compacted: number;
  message_uid: string | null;
  absorbed_message_uids: string | null;
  tool_call_uids: string | null;
  tool_call_uid: string | null;
}

/** Columns a copy carries unchanged; `id`, `active` and `compacted` belong to the new row. */
export const COPIED_COLUMNS = [
  "role",
  "content",
  "tool_call_id",
  "tool_calls",
  "tool_name",
  "timestamp",
  "token_count",
  "finish_reason",
  "reasoning",
  "display_kind",
  "display_metadata",
  "message_uid",
  "absorbed_message_uids",
  "tool_call_uids",
  "tool_call_uid",
] as const;

/** Multimodal (list) content is stored behind this sentinel, as upstream does. */
export const JSON_CONTENT_SENTINEL = "\u0000json:";

/** Throws a StoreInputError naming the first message of the batch the store cannot persist. */
export function validateBatch(messages: readonly unknown[]): void {
  if (!Array.isArray(messages)) throw new StoreInputError("messages must be an array");
  messages.forEach((message, index) => {
    if (typeof message !== "object" || message === null || Array.isArray(message)) {
      throw new StoreInputError(`message ${index} is not an object`, index);
    }
    const record = message as Record<string, unknown>;
    if (typeof record.role !== "string" || record.role.length === 0) {
      throw new StoreInputError(`message ${index}: role must be a non-empty string`, index);
    }
    const content = record.content;
    if (content !== undefined && content !== null && typeof content !== "string") {
      if (!Array.isArray(content)) {
        throw new StoreInputError(`message ${index}: content must be a string, a list of parts or null`, index);
      }
      assertSerialisable(content, index, "content");
    }
    if (record.tool_calls !== undefined && record.tool_calls !== null) {
      if (!Array.isArray(record.tool_calls)) {
        throw new StoreInputError(`message ${index}: tool_calls must be a list`, index);
      }
      assertSerialisable(record.tool_calls, index, "tool_calls");
    }
    if (record.display_metadata !== undefined && record.display_metadata !== null) {
      assertSerialisable(record.display_metadata, index, "display_metadata");
    }
  });
}

function assertSerialisable(value: unknown, index: number, field: string): void {
  const reason = jsonUnsafeReason(value);
  if (reason !== null) throw new StoreInputError(`message ${index}: ${field} is not JSON-serialisable (${reason})`, index);
}

export function encodeContent(content: Message["content"]): string | null {
  if (content === undefined || content === null) return null;
  if (typeof content === "string") return content;
  return JSON_CONTENT_SENTINEL + JSON.stringify(content);
}

export function decodeContent(column: string | null): MessageContent {
  if (column === null) return null;
  if (column.startsWith(JSON_CONTENT_SENTINEL)) return JSON.parse(column.slice(JSON_CONTENT_SENTINEL.length)) as MessageContent;
  return column;
}

/** Values bound by the insert statement, in COPIED_COLUMNS order (timestamp supplied by the caller). */
export function bindValues(message: Message, timestamp: number): unknown[] {
  const toolCalls = Array.isArray(message.tool_calls) && message.tool_calls.length > 0 ? JSON.stringify(message.tool_calls) : null;
  return [
    message.role,
    encodeContent(message.content),
    typeof message.tool_call_id === "string" ? message.tool_call_id : null,
    toolCalls,
    typeof message.name === "string" ? message.name : null,
    timestamp,
    typeof message.token_count === "number" ? message.token_count : null,
    typeof message.finish_reason === "string" ? message.finish_reason : null,
    typeof message.reasoning === "string" ? message.reasoning : null,
    typeof message.display_kind === "string" ? message.display_kind : null,
    message.display_metadata === undefined || message.display_metadata === null ? null : JSON.stringify(message.display_metadata),
    uidOrNull(message.message_uid),
    message._absorbed_message_uids === undefined ? null : encodeUidList(uidList(message._absorbed_message_uids)),
    encodeToolCallUidColumn(message._tool_call_uids),
    uidOrNull(message._tool_call_uid),
  ];
}

/**
 * The row SQLite holds after binding `values` (COPIED_COLUMNS, then active and compacted) as row
 * `id`, or null when some value would not come back exactly as bound: a string that is not
 * well-formed UTF-16 (SQLite stores UTF-8, so a lone surrogate comes back as U+FFFD), a number
 * SQLite stores differently (NaN as NULL, -0 as 0, infinities), or a missing uid (the insert
 * trigger mints one in SQL).
 */
export function storedRow(id: number, sessionId: string, values: readonly unknown[]): MessageRow | null {
  if (!isWellFormed(sessionId)) return null;
  for (const value of values) {
    if (typeof value === "string") {
      if (!isWellFormed(value)) return null;
    } else if (typeof value === "number") {
      if (!Number.isFinite(value) || Object.is(value, -0)) return null;
    } else if (value !== null) return null;
  }
  // Positions are COPIED_COLUMNS order, then active and compacted (INSERT_COLUMNS of batch-insert.ts).
  const v = values as unknown[];
  if (v[11] === null) return null;
  return {
    id,
    session_id: sessionId,
    role: v[0] as string,
    content: v[1] as string | null,
    tool_call_id: v[2] as string | null,
    tool_calls: v[3] as string | null,
    tool_name: v[4] as string | null,
    timestamp: v[5] as number,
    token_count: v[6] as number | null,
    finish_reason: v[7] as string | null,
    reasoning: v[8] as string | null,
    display_kind: v[9] as string | null,
    display_metadata: v[10] as string | null,
    active: v[15] as number,
    compacted: v[16] as number,
    message_uid: v[11] as string | null,
    absorbed_message_uids: v[12] as string | null,
    tool_call_uids: v[13] as string | null,
    tool_call_uid: v[14] as string | null,
  };
}

/** String.prototype.isWellFormed (Node 20; newer than this project's TypeScript lib). */
function isWellFormed(text: string): boolean {
  return (text as unknown as { isWellFormed(): boolean }).isWellFormed();
}

/** The restored message of one row: identity always, the row id only on request. */
export function rowToMessage(row: MessageRow, includeRowId: boolean): Message {
  const message: Message = { role: row.role, content: decodeContent(row.content) };
  if (row.tool_call_id !== null) message.tool_call_id = row.tool_call_id;
  if (row.tool_calls !== null) message.tool_calls = JSON.parse(row.tool_calls) as ToolCall[];
  if (row.tool_name !== null) message.name = row.tool_name;
  if (row.token_count !== null) message.token_count = row.token_count;
  if (row.finish_reason !== null) message.finish_reason = row.finish_reason;
  if (row.reasoning !== null) message.reasoning = row.reasoning;
  if (row.display_kind !== null) message.display_kind = row.display_kind;
  if (row.display_metadata !== null) message.display_metadata = JSON.parse(row.display_metadata) as unknown;
  message.timestamp = row.timestamp;
  if (row.message_uid !== null) message.message_uid = row.message_uid;
  const absorbed = decodeUidList(row.absorbed_message_uids);
  if (absorbed.length > 0) message._absorbed_message_uids = absorbed;
  const toolUids = decodeToolCallUids(row.tool_call_uids);
  if (toolUids !== null) message._tool_call_uids = toolUids;
  if (row.tool_call_uid !== null) message._tool_call_uid = row.tool_call_uid;
  if (includeRowId) message._row_id = row.id;
  return message;
}

/** The row columns read back, in MessageRow order; rows are read as arrays (much faster than objects) and mapped here. */
export const ROW_SELECT =
  "id, session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp, token_count, finish_reason, reasoning, display_kind, display_metadata, active, compacted, message_uid, absorbed_message_uids, tool_call_uids, tool_call_uid";

export function rowFromArray(a: unknown[]): MessageRow {
  return {
    id: a[0] as number,
    session_id: a[1] as string,
    role: a[2] as string,
    content: a[3] as string | null,
    tool_call_id: a[4] as string | null,
    tool_calls: a[5] as string | null,
    tool_name: a[6] as string | null,
    timestamp: a[7] as number,
    token_count: a[8] as number | null,
    finish_reason: a[9] as string | null,
    reasoning: a[10] as string | null,
    display_kind: a[11] as string | null,
    display_metadata: a[12] as string | null,
    active: a[13] as number,
    compacted: a[14] as number,
    message_uid: a[15] as string | null,
    absorbed_message_uids: a[16] as string | null,
    tool_call_uids: a[17] as string | null,
    tool_call_uid: a[18] as string | null,
  };
}
