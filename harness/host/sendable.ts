import { firstUnsendable } from "../contract/validate.ts";
import { jsonUnsafeReason } from "../store/json-safety.ts";

/**
 * What the host can neither store nor send, for engine output it would otherwise use: a compress()
 * result (refused) and a select_context() selection (failed open). Engine faults stay the engine's:
 * the host names the element and carries on, it never crashes on them.
 */

/** Why a message's fields would not survive the store's JSON columns, or null (the message itself may be any object). */
export function unstorableField(message: unknown): string | null {
  if (message === null || typeof message !== "object" || Array.isArray(message)) return null; // a shape problem, named by the validator
  for (const key of Object.keys(message)) {
    const value = (message as Record<string, unknown>)[key];
    if (value === undefined) continue;
    const reason = jsonUnsafeReason(value);
    if (reason !== null) return `${key}: ${reason}`;
  }
  return null;
}

/** Why a list of message objects cannot go to a provider (element named), or null. */
export function unsendableProblem(messages: readonly unknown[]): string | null {
  for (const [index, message] of messages.entries()) {
    const unsafe = unstorableField(message);
    if (unsafe !== null) return `element ${index}: ${unsafe}`;
  }
  return firstUnsendable(messages)?.detail ?? null;
}
