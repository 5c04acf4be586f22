import type { Message } from "../contract/types.ts";
import { stripPersistenceFields } from "../contract/persistence-fields.ts";
import { cloneMessage } from "./clone.ts";
import { deepEqual } from "./deep-equal.ts";
import { isPersistedMessage } from "./persisted-message.ts";

/**
 * The `request_messages` select_context receives: wire copies the engine may edit in place, down
 * to a tool call's arguments, with the edit staying in that one request (SEL-4). The plain wire
 * copies share their nested values (tool calls, content parts) with the history, so an edit of
 * one of those would reach the history and every later request.
 *
 * A persisted message never changes, so its wire form with private nested values is made once;
 * each request gets a new top-level copy of it. The engine can reach those nested values, so
 * before they are handed out again they are compared with the history's and made afresh if an
 * engine changed them. Comparing allocates nothing, which is what keeps a no-op override near
 * the cost of an inheriting one (the overhead benchmark). The one edit this does not contain is
 * an engine keeping a nested value from an earlier request and changing it during a later one.
 */
const bases = new WeakMap<object, Message>();

export function requestCopies(transcript: readonly Message[]): Message[] {
  const out = new Array<Message>(transcript.length);
  for (let index = 0; index < transcript.length; index++) {
    const source = transcript[index]!;
    out[index] = isPersistedMessage(source) ? { ...baseOf(source) } : cloneMessage(stripPersistenceFields(source));
  }
  return out;
}

function baseOf(source: Message): Message {
  let base = bases.get(source);
  if (base === undefined || !nestedIntact(base, source)) {
    base = cloneMessage(stripPersistenceFields(source));
    bases.set(source, base);
  }
  return base;
}

function nestedIntact(base: Message, source: Message): boolean {
  for (const key in base) {
    const value = base[key];
    if (value !== null && typeof value === "object" && !deepEqual(value, source[key])) return false;
  }
  return true;
}
