import type { Message } from "../contract/types.ts";
import { stripPersistenceFields } from "../contract/persistence-fields.ts";
import { isPersistedMessage } from "./persisted-message.ts";
import { deepEqual } from "./deep-equal.ts";

/**
 * The wire form of each persisted message, made once and handed to nobody: what the trace digests
 * in place of a request's wire copies while they still equal it. A request's copies are new every
 * time (the engine may edit them), so their JSON cannot be remembered; a twin's can, as a
 * persisted message's is (it never changes, nor does anything it holds).
 */
const twins = new WeakMap<object, Message>();
const made = new WeakSet<object>();

function twinOf(persisted: Message): Message {
  let twin = twins.get(persisted);
  if (twin === undefined) {
    twin = stripPersistenceFields(persisted);
    twins.set(persisted, twin);
    made.add(twin);
  }
  return twin;
}

/** A twin (the digests may remember its JSON). */
export const isWireTwin = (value: object): boolean => made.has(value);

/**
 * What to digest for a request's wire copies of `transcript` after the engine had them: the
 * twins where a copy still has exactly its twin's members (the same values), else the copy itself.
 * Either way the digest is that of the copies as they are now.
 */
export function wireForDigest(wire: readonly Message[], transcript: readonly Message[]): readonly unknown[] {
  if (wire.length !== transcript.length) return wire;
  return wire.map((copy, index) => {
    const source = transcript[index]!;
    if (!isPersistedMessage(source)) return copy;
    const twin = twinOf(source);
    return sameMembers(copy, twin) ? twin : copy;
  });
}

/**
 * What to digest for select_context's answer: the answer with each element that is one of the
 * request's copies replaced by what the copy was digested as (its twin while it is unchanged).
 * An engine that selects usually hands back its request's own copies, and their JSON is then the
 * twins' remembered JSON instead of being written out again.
 */
export function answerForDigest(answer: unknown, wire: readonly Message[], wireDigest: readonly unknown[]): unknown {
  if (!Array.isArray(answer) || wireDigest === wire) return answer;
  const standIns = new Map<unknown, unknown>();
  for (let index = 0; index < wire.length; index++) if (wireDigest[index] !== wire[index]) standIns.set(wire[index], wireDigest[index]);
  if (standIns.size === 0) return answer;
  // A plain loop into a plain array: the answer is the engine's, and its own `map` (or a species) could run its code.
  const list = answer as readonly unknown[];
  const out = new Array<unknown>(list.length);
  for (let index = 0; index < list.length; index++) {
    const element = list[index];
    const twin = standIns.get(element) as Message | undefined;
    // Checked again: the engine's code (a getter) may have run since the arguments were digested.
    out[index] = twin !== undefined && sameMembers(element as Message, twin) ? twin : element;
  }
  return out;
}

function sameMembers(a: Message, b: Message): boolean {
  let count = 0;
  for (const key in a) {
    if (!Object.hasOwn(a, key) || !Object.hasOwn(b, key)) return false;
    const value = a[key];
    // A request's nested values are its own copies (request-copies.ts), equal while the engine left them alone.
    if (value !== b[key] && (value === null || typeof value !== "object" || !deepEqual(value, b[key]))) return false;
    count++;
  }
  for (const key in b) if (Object.hasOwn(b, key)) count--;
  return count === 0;
}
