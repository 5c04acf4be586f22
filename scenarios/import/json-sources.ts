import { jsonInputProblem } from "../../harness/util/input-limits.ts";
import { ImportError, type SourcedMessage, type SourcedSession } from "./errors.ts";

/** Multimodal content in a ctxbench store export/row is JSON behind this prefix (the store's convention). */
export const STORED_JSON_CONTENT_PREFIX = "\u0000json:";

/**
 * Sessions in a JSON text: an OpenAI-format message list (a JSON array, or JSONL with one message
 * per line), `{ "messages": [...] }`, or a ctxbench session export (one, or an array of them).
 */
export function sessionsFromJsonText(file: string, text: string, defaultSessionId: string): SourcedSession[] {
  const trimmed = text.trimStart();
  if (trimmed === "") throw new ImportError(file, null, "the file is empty");
  if (trimmed.startsWith("[") || trimmed.startsWith("{")) {
    const whole = tryParse(text);
    if (whole.ok) return sessionsFromValue(file, bounded(file, null, whole.value), defaultSessionId);
    if (trimmed.startsWith("[")) throw new ImportError(file, `line ${lineOfPosition(text, whole.position)}`, `not valid JSON (${whole.message})`);
    return [{ id: defaultSessionId, messages: jsonlMessages(file, text) }];
  }
  throw new ImportError(file, "line 1", "not JSON, JSONL or a SQLite session store");
}

function sessionsFromValue(file: string, value: unknown, defaultSessionId: string): SourcedSession[] {
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every(isSessionExport)) return value.map((v, i) => exportSession(file, v, `session ${i}`));
    return [{ id: defaultSessionId, messages: value.map((m, i) => ({ where: `message ${i}`, value: m })) }];
  }
  if (isSessionExport(value)) return [exportSession(file, value, null)];
  if (typeof value === "object" && value !== null && Array.isArray((value as { messages?: unknown }).messages)) {
    const messages = (value as { messages: unknown[] }).messages;
    return [{ id: defaultSessionId, messages: messages.map((m, i) => ({ where: `messages[${i}]`, value: m })) }];
  }
  // A single JSON object on one line is also a one-message JSONL file.
  return [{ id: defaultSessionId, messages: [{ where: "line 1", value }] }];
}

function jsonlMessages(file: string, text: string): SourcedMessage[] {
  const messages: SourcedMessage[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === "") continue;
    const parsed = tryParse(line);
    if (!parsed.ok) throw new ImportError(file, `line ${i + 1}`, `not valid JSON (${parsed.message})`);
    messages.push({ where: `line ${i + 1}`, value: bounded(file, `line ${i + 1}`, parsed.value) });
  }
  return messages;
}

interface ExportShape {
  format: "ctxbench-session";
  session: { id: string; system_prompt?: string | null };
  messages: unknown[];
}

function isSessionExport(value: unknown): value is ExportShape {
  return typeof value === "object" && value !== null && (value as { format?: unknown }).format === "ctxbench-session";
}

/** Active rows of an export, as restored messages: identity columns become the host's fields. */
function exportSession(file: string, value: ExportShape, where: string | null): SourcedSession {
  if (typeof value.session?.id !== "string" || !Array.isArray(value.messages)) {
    throw new ImportError(file, where, "a ctxbench-session export needs session.id and messages");
  }
  const messages: SourcedMessage[] = [];
  value.messages.forEach((row, i) => {
    const r = row as Record<string, unknown>;
    if (typeof r !== "object" || r === null) throw new ImportError(file, `messages[${i}]`, "an exported message must be an object");
    if (r.active === false) return;
    messages.push({ where: `messages[${i}]`, value: storedRowToMessage(file, `messages[${i}]`, r) });
  });
  const session: SourcedSession = { id: value.session.id, messages };
  if (typeof value.session.system_prompt === "string") session.systemPrompt = value.session.system_prompt;
  return session;
}

/**
 * A stored row (an export entry or a SQLite row) as the message a restore gives: tool calls and
 * identity JSON decoded, `tool_name` as `name`. Columns absent from older layouts are skipped.
 */
export function storedRowToMessage(file: string, where: string, row: Record<string, unknown>): Record<string, unknown> {
  const message: Record<string, unknown> = { role: row.role };
  message.content = typeof row.content === "string" && row.content.startsWith(STORED_JSON_CONTENT_PREFIX)
    ? parseColumn(file, where, "content", row.content.slice(STORED_JSON_CONTENT_PREFIX.length))
    : row.content ?? null;
  if (typeof row.tool_call_id === "string") message.tool_call_id = row.tool_call_id;
  if (row.tool_calls !== null && row.tool_calls !== undefined) {
    message.tool_calls = typeof row.tool_calls === "string" ? parseColumn(file, where, "tool_calls", row.tool_calls) : row.tool_calls;
  }
  if (typeof row.tool_name === "string") message.name = row.tool_name;
  if (typeof row.message_uid === "string" && row.message_uid) message.message_uid = row.message_uid;
  if (typeof row.tool_call_uids === "string") message._tool_call_uids = parseColumn(file, where, "tool_call_uids", row.tool_call_uids);
  if (typeof row.tool_call_uid === "string" && row.tool_call_uid) message._tool_call_uid = row.tool_call_uid;
  return message;
}

function parseColumn(file: string, where: string, column: string, text: string): unknown {
  const parsed = tryParse(text);
  if (!parsed.ok) throw new ImportError(file, where, `${column} is not valid JSON (${parsed.message})`);
  return bounded(file, `${where}: ${column}`, parsed.value);
}

/** A parsed value, unless it nests too deep or carries a "__proto__" key (see jsonInputProblem). */
function bounded(file: string, where: string | null, value: unknown): unknown {
  const refused = jsonInputProblem(value);
  if (refused !== null) throw new ImportError(file, where, `${refused.path}: ${refused.message}`);
  return value;
}

type Parsed = { ok: true; value: unknown } | { ok: false; message: string; position: number };

function tryParse(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message);
    return { ok: false, message, position: position ? Number(position[1]) : 0 };
  }
}

function lineOfPosition(text: string, position: number): number {
  let line = 1;
  for (let i = 0; i < position && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
