import type { Message } from "../contract/types.ts";
import { isPersistedMessage } from "./persisted-message.ts";

/**
 * A structural clone of one message: the message object and every array and plain object inside
 * it are recreated, leaf values are shared (upstream's clone for the select_context arguments and
 * the on_turn_complete copies). In-place edits of the clone never reach the original.
 */
export function cloneMessage(message: Message): Message {
  return cloneValue(message) as Message;
}

export function cloneMessages(messages: readonly Message[]): Message[] {
  const out = new Array<Message>(messages.length);
  for (let index = 0; index < messages.length; index++) out[index] = cloneValue(messages[index]) as Message;
  return out;
}

/**
 * The trace's record of a history as it is now. A persisted message is recorded as it is: the host
 * never edits one again and no engine is handed the host's object (every hook gets clones), so it
 * reads the same when the trace is written. Any other message is copied, since the host stamps it
 * in place when it writes it (the turn's user message, seen by a preflight pass before the flush).
 */
export function traceCopies(history: readonly Message[]): Message[] {
  const out = new Array<Message>(history.length);
  for (let index = 0; index < history.length; index++) {
    const message = history[index]!;
    out[index] = isPersistedMessage(message) ? message : cloneMessage(message);
  }
  return out;
}

/**
 * A deep copy of JSON-shaped data. Messages hold only strings, numbers, booleans, null, arrays and
 * plain objects, so a purpose-built recursion is several times faster than structuredClone; any
 * other object (a Date, a Map an engine stored) falls back to structuredClone. A plain object is
 * copied with a spread (own keys in order, one bulk copy instead of a keyed store per property,
 * which for a tool-call uid map keyed by provider ids cost a hidden-class transition per key), then
 * its nested values are cloned. The spread defines keys, so an own "__proto__" stays a key.
 */
export function cloneValue(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      out[index] = item === null || typeof item !== "object" ? item : cloneValue(item);
    }
    return out;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return cloneForeign(value);
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const key in out) {
    const item = out[key];
    if (item !== null && typeof item === "object") out[key] = cloneValue(item);
  }
  return out;
}

function cloneForeign(value: object): unknown {
  try {
    return structuredClone(value);
  } catch {
    return value;
  }
}
