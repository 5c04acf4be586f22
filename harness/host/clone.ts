import type { Message } from "../contract/types.ts";

/**
 * A structural clone of one message: the message object and every array and plain object inside
 * it are recreated, leaf values are shared (upstream's clone for the select_context arguments and
 * the on_turn_complete copies). In-place edits of the clone never reach the original.
 */
export function cloneMessage(message: Message): Message {
  return cloneMessageValue(message) as Message;
}

export function cloneMessages(messages: readonly Message[]): Message[] {
  const out = new Array<Message>(messages.length);
  for (let index = 0; index < messages.length; index++) out[index] = cloneMessageValue(messages[index]) as Message;
  return out;
}

/** cloneValue, except that a message's `_tool_call_uids` map is copied as a keyed map (cloneKeyedMap). */
function cloneMessageValue(message: unknown): unknown {
  if (message === null || typeof message !== "object" || Array.isArray(message)) return cloneValue(message);
  const proto = Object.getPrototypeOf(message) as unknown;
  if (proto !== Object.prototype && proto !== null) return cloneForeign(message);
  const out: Record<string, unknown> = { ...(message as Record<string, unknown>) };
  for (const key in out) {
    const item = out[key];
    if (item !== null && typeof item === "object") out[key] = key === "_tool_call_uids" ? cloneKeyedMap(item) : cloneValue(item);
  }
  return out;
}

/**
 * A copy of a map keyed by provider tool-call ids, nearly every key a name no other object has.
 * Built on an object without a prototype, V8 keeps it as a dictionary; built on `{}`, every key
 * costs a hidden-class transition, and those maps were most of the time a 10k-message snapshot
 * took. It gets the ordinary prototype once filled, and an own "__proto__" key stays an entry.
 */
function cloneKeyedMap(value: object): unknown {
  if (Array.isArray(value)) return cloneValue(value);
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return cloneForeign(value);
  const out = Object.create(null) as Record<string, unknown>;
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    out[key] = item === null || typeof item !== "object" ? item : cloneValue(item);
  }
  return Object.setPrototypeOf(out, Object.prototype);
}

/**
 * A deep copy of JSON-shaped data. Messages hold only strings, numbers, booleans, null, arrays and
 * plain objects, so a purpose-built recursion is several times faster than structuredClone; any
 * other object (a Date, a Map an engine stored) falls back to structuredClone. A plain object is
 * copied with a spread (own keys, in order, in one bulk copy), then its nested values are cloned.
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
