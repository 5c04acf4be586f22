import type { Message, ToolCall } from "../../harness/contract/types.ts";
import { describeResult, messageText } from "../shared/message-text.ts";
import type { ToolPairing } from "../shared/tool-pairs.ts";

/**
 * Cheap, model-free reductions of tool traffic. Every rewrite makes a new message object that keeps
 * the original's identity fields, so the host sees a new version of the same message (UID-4).
 */

export const DUPLICATE_OUTPUT = "[Duplicate tool output: identical to the result of a later call, which is kept]";
const CLEARED_SUFFIX = " (output cleared to save context)";
const TRUNCATED = "…[truncated]";

/** The call a tool result answers, or undefined for an orphan. */
export function callOfResult(messages: readonly Message[], pairing: ToolPairing, index: number): ToolCall | undefined {
  const assistant = pairing.pairedAssistant[index] ?? -1;
  if (assistant < 0) return undefined;
  const id = (messages[index] as Message).tool_call_id;
  return (messages[assistant] as Message).tool_calls?.find((call) => call.id === id);
}

function isPlainResult(message: Message): boolean {
  return message.role === "tool" && typeof message.content === "string";
}

/** The content a duplicate check compares, or null when the message is not a deduplicable output. */
export function dedupeKey(message: Message, minChars: number): string | null {
  if (!isPlainResult(message)) return null;
  const content = message.content as string;
  return content.length < minChars || content === DUPLICATE_OUTPUT ? null : content;
}

export function asDuplicate(message: Message): Message {
  return { ...message, content: DUPLICATE_OUTPUT };
}

/** One tool result as a one-line description, or the message itself when that would not be shorter. */
export function clearedResult(messages: readonly Message[], pairing: ToolPairing, index: number, minChars: number): Message {
  const message = messages[index] as Message;
  if (message.role !== "tool") return message;
  const text = messageText(message);
  if (text.length <= minChars || alreadyPruned(text)) return message;
  const line = `${describeResult(callOfResult(messages, pairing, index), text)}${CLEARED_SUFFIX}`;
  return line.length < text.length ? { ...message, content: line } : message;
}

/** An assistant message with long JSON arguments shortened inside the JSON, or itself. */
export function withShrunkArguments(message: Message, maxArgChars: number, leafChars: number): Message {
  if (message.role !== "assistant" || !Array.isArray(message.tool_calls)) return message;
  let changed = false;
  const calls = message.tool_calls.map((call) => {
    const args = call?.function?.arguments;
    if (typeof args !== "string" || args.length <= maxArgChars) return call;
    let parsed: unknown;
    try {
      parsed = JSON.parse(args);
    } catch {
      return call;
    }
    const shrunk = JSON.stringify(shrinkLeaves(parsed, leafChars));
    if (shrunk.length >= args.length) return call;
    changed = true;
    return { ...call, function: { ...call.function, arguments: shrunk } };
  });
  return changed ? { ...message, tool_calls: calls } : message;
}

/**
 * Replace byte-identical tool outputs of at least `minChars` by a marker, keeping the newest copy
 * (lossless: the content is still in the list). Returns how many were replaced.
 */
export function dedupeToolResults(messages: Message[], minChars: number): number {
  const seen = new Set<string>();
  let count = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as Message;
    if (!isPlainResult(message)) continue;
    const content = message.content as string;
    if (content.length < minChars || content === DUPLICATE_OUTPUT) continue;
    if (seen.has(content)) {
      messages[i] = { ...message, content: DUPLICATE_OUTPUT };
      count++;
    } else seen.add(content);
  }
  return count;
}

/** True for a result already reduced by a previous pass. */
function alreadyPruned(content: string): boolean {
  return content === DUPLICATE_OUTPUT || content.endsWith(CLEARED_SUFFIX);
}

/**
 * Replace tool results longer than `minChars` in `[from, to)` by a one-line description of the call
 * and its output. Returns how many were replaced.
 */
export function clearLargeResults(
  messages: Message[],
  pairing: ToolPairing,
  from: number,
  to: number,
  minChars: number,
): number {
  let count = 0;
  for (let i = Math.max(0, from); i < Math.min(to, messages.length); i++) {
    const cleared = clearedResult(messages, pairing, i, minChars);
    if (cleared !== messages[i]) {
      messages[i] = cleared;
      count++;
    }
  }
  return count;
}

/** Shorten long string leaves inside JSON tool arguments, so the arguments stay valid JSON. */
export function shrinkArguments(messages: Message[], from: number, to: number, maxArgChars: number, leafChars: number): number {
  let count = 0;
  for (let i = Math.max(0, from); i < Math.min(to, messages.length); i++) {
    const shrunk = withShrunkArguments(messages[i] as Message, maxArgChars, leafChars);
    if (shrunk !== messages[i]) {
      messages[i] = shrunk;
      count++;
    }
  }
  return count;
}

function shrinkLeaves(value: unknown, leafChars: number): unknown {
  if (typeof value === "string") return value.length > leafChars ? value.slice(0, leafChars) + TRUNCATED : value;
  if (Array.isArray(value)) return value.map((item) => shrinkLeaves(item, leafChars));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = shrinkLeaves(item, leafChars);
    return out;
  }
  return value;
}
