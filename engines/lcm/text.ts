import { createHash } from "node:crypto";
import { stripPersistenceFields } from "../../harness/contract/persistence-fields.ts";
import type { Message } from "../../harness/contract/types.ts";
import { messageText } from "../shared/message-text.ts";
import { redactSecrets } from "../shared/redact.ts";

/** What grep and retrieval search: the message's text, and for calls their names and arguments. */
export function searchableText(message: Message): string {
  const parts = [messageText(message)];
  for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
    const fn = call?.function;
    if (fn) parts.push(`${String(fn.name ?? "")}(${String(fn.arguments ?? "")})`);
  }
  return parts.filter((p) => p.length > 0).join("\n");
}

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** A version fingerprint: the message as it reaches the wire, so bookkeeping fields do not count. */
export function fingerprint(message: Message): string {
  return sha256Hex(JSON.stringify(stripPersistenceFields(message))).slice(0, 32);
}

export function uidOf(message: Message): string | null {
  const uid = message.message_uid;
  return typeof uid === "string" && uid.length > 0 ? uid : null;
}

const STOPWORDS = new Set(
  (
    "the and for are but not you your yours with that this these those what which who whom whose when where why how " +
    "was were been being have has had does did doing can could should would will shall may might must about above " +
    "after again against all any both each few more most other some such only own same than too very just now then " +
    "there here from into onto over under out off once our ours they them their its it's i'm we're please tell remember " +
    "recall know said say earlier before previously mentioned again also give show me my mine us let"
  ).split(" "),
);

/** The significant words of a question: lowercased, three characters or more, no stopwords, first 12. */
export function queryTerms(text: string): string[] {
  const seen = new Set<string>();
  for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}][\p{L}\p{N}_-]*[\p{L}\p{N}]/gu)) {
    const word = match[0];
    if (word.length < 3 || STOPWORDS.has(word)) continue;
    seen.add(word);
    if (seen.size >= 12) break;
  }
  return [...seen];
}

/** Head and tail of a long text with a marker between, at most `maxChars` characters. */
export function clipText(text: string, maxChars: number): string {
  const marker = " […] ";
  if (text.length <= maxChars) return text;
  const keep = Math.max(0, maxChars - marker.length);
  const [head, tail] = [Math.ceil(keep / 2), Math.floor(keep / 2)];
  return `${text.slice(0, head)}${marker}${text.slice(text.length - tail)}`;
}

/**
 * A copy of the message with credential-shaped text masked in its content, text parts and call
 * arguments. The store keeps this copy: a key pasted once must not come back through grep,
 * expand or retrieval. The fingerprint stays that of the original, so versions still match.
 */
export function redactMessage(message: Message): Message {
  const copy: Message = { ...message };
  if (typeof copy.content === "string") copy.content = redactSecrets(copy.content);
  else if (Array.isArray(copy.content)) {
    copy.content = copy.content.map((part) =>
      part && typeof part === "object" && typeof (part as { text?: unknown }).text === "string"
        ? { ...part, text: redactSecrets((part as { text: string }).text) }
        : part,
    );
  }
  if (Array.isArray(copy.tool_calls)) {
    copy.tool_calls = copy.tool_calls.map((call) =>
      call?.function && typeof call.function.arguments === "string"
        ? { ...call, function: { ...call.function, arguments: redactSecrets(call.function.arguments) } }
        : call,
    );
  }
  return copy;
}
