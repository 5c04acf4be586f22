import { stripPersistenceFields } from "../../contract/persistence-fields.ts";
import type { Message } from "../../contract/types.ts";
import { canonicalJson } from "../../trace/canonical-json.ts";

/**
 * A message's JSON, computed once per message object. A decoded trace interns its messages (one
 * shared, read-only object per distinct message), so the checks comparing inputs with outputs pass
 * after pass serialise each distinct message once instead of once per pass that holds it.
 */
const plain = new WeakMap<object, string>();
const wire = new WeakMap<object, string>();

/** JSON.stringify of the message (key order kept), or "" for what is not an object. */
export function jsonOf(message: unknown): string {
  if (typeof message !== "object" || message === null) return JSON.stringify(message) ?? "";
  let json = plain.get(message);
  if (json === undefined) {
    json = JSON.stringify(message);
    plain.set(message, json);
  }
  return json;
}

/** The canonical JSON of the message as sent (persistence-only fields dropped). */
export function wireJsonOf(message: Message): string {
  let json = wire.get(message);
  if (json === undefined) {
    json = canonicalJson(stripPersistenceFields(message));
    wire.set(message, json);
  }
  return json;
}
