import { PERSISTENCE_ONLY_MESSAGE_FIELDS } from "./persistence-fields.ts";
import type { Message } from "./types.ts";

/** Characters per token of the rough estimator, as upstream's rough estimate. */
export const CHARS_PER_TOKEN = 4;
const PER_MESSAGE_OVERHEAD = 4;

/** Characters of one message that reach the wire: persistence-only fields are ignored (WIRE-2). */
export function wireChars(message: Message): number {
  let chars = 0;
  for (const key in message) {
    if (PERSISTENCE_ONLY_MESSAGE_FIELDS.has(key)) continue;
    const value = message[key];
    if (value === undefined || value === null) continue;
    chars += key.length + (typeof value === "string" ? value.length : JSON.stringify(value).length);
  }
  return chars;
}

/** Rough token estimate of one message: about four characters a token plus a small per-message overhead. */
export function estimateMessageTokensRough(message: Message): number {
  return Math.ceil(wireChars(message) / CHARS_PER_TOKEN) + PER_MESSAGE_OVERHEAD;
}

/** Rough token estimate of a message list. */
export function estimateTokensRough(messages: readonly Message[]): number {
  let total = 0;
  for (const message of messages) total += estimateMessageTokensRough(message);
  return total;
}
