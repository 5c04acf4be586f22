import type { Message } from "../contract/types.ts";
import { canonicalJson } from "./canonical-json.ts";
import type { Trace, TraceEvent } from "./events.ts";

/**
 * The shipped form of a trace: a request event repeats the whole history it sent, so a
 * catalogue scenario's trace is mostly the same messages over and over (58 MB of JSONL for lcm on
 * concurrent-sessions, 2,886 distinct messages). Shipped, each distinct message is written once
 * into a per-trace table and the message lists of events become lists of indices into it.
 * Decoding gives exactly what JSON.parse of the canonical JSONL line would (messages with equal
 * canonical JSON become one shared object, so a decoded trace must be treated as read-only).
 */

type ListField = "messages" | "input" | "output" | "history";

/** Where events hold message lists, by event type. `run-end.histories` is a record of lists. */
const LIST_FIELDS: Partial<Record<TraceEvent["type"], readonly ListField[]>> = {
  request: ["messages"],
  compaction: ["input", "output"],
  "host-event": ["history"],
};

/** One chunk of an encoded trace: the table entries first used by its events, then the events. */
export interface EncodedChunk {
  /** Canonical JSON of each new table entry, in table order. */
  messages: string[];
  /** Canonical JSON of each event, message lists replaced by table indices. */
  events: string[];
  /** Characters of the two together. */
  size: number;
}

export class TraceEncoder {
  readonly #table = new Map<string, number>();
  #pending: string[] = [];
  /**
   * The last message list of each session and its references, one for the lists a request sends
   * and one for the host's own (a pass's input and output, a restored history): a request repeats
   * the previous one's messages at the same positions, and comparing them structurally (their
   * strings are the very same ones) is far cheaper than serialising each again to look it up. The
   * two kinds are kept apart because a request's messages are stripped of what the host stores
   * with them, so one kind never matches the other.
   */
  readonly #lastBySession = new Map<string, { list: readonly unknown[]; refs: number[] }>();

  /** Table entries so far. */
  get tableSize(): number {
    return this.#table.size;
  }

  /** The event's canonical JSON with its message lists interned; new entries wait in takeMessages(). */
  encodeEvent(event: TraceEvent): string {
    const fields = LIST_FIELDS[event.type];
    if (event.type === "run-end") {
      const histories: Record<string, number[]> = {};
      for (const [session, messages] of Object.entries(event.histories)) histories[session] = this.#intern(messages, `host:${session}`);
      return canonicalJson({ ...event, histories });
    }
    if (fields === undefined) return canonicalJson(event);
    const copy: Record<string, unknown> = { ...event };
    for (const field of fields) {
      const value = copy[field];
      if (Array.isArray(value)) copy[field] = this.#intern(value as Message[], `${event.type === "request" ? "request" : "host"}:${event.session ?? ""}`);
    }
    return canonicalJson(copy);
  }

  /** The table entries added since the last call. */
  takeMessages(): string[] {
    const taken = this.#pending;
    this.#pending = [];
    return taken;
  }

  #intern(list: readonly unknown[], lastKey: string): number[] {
    const refs = new Array<number>(list.length);
    const last = this.#lastBySession.get(lastKey);
    for (let index = 0; index < list.length; index++) {
      if (last !== undefined && index < last.list.length && sameValue(list[index], last.list[index])) {
        refs[index] = last.refs[index]!;
        continue;
      }
      const json = canonicalJson(list[index]);
      let ref = this.#table.get(json);
      if (ref === undefined) {
        ref = this.#table.size;
        this.#table.set(json, ref);
        this.#pending.push(json);
      }
      refs[index] = ref;
    }
    this.#lastBySession.set(lastKey, { list, refs });
    return refs;
  }
}

/**
 * True only when both values have the same canonical JSON, by the same rules canonicalJson writes
 * (own enumerable keys, `undefined` and functions dropped). It may say false for values that do
 * (NaN, very deep or cyclic data): the caller then serialises, so only speed depends on it.
 */
function sameValue(a: unknown, b: unknown, depth = 0): boolean {
  if (a === b) return typeof a !== "number" || Number.isFinite(a);
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object" || depth > 64) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index++) if (!sameValue(a[index], b[index], depth + 1)) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  // for-in rather than Object.keys: no key lists are made; inherited keys are skipped, as canonicalJson skips them.
  let count = 0;
  for (const key in left) {
    if (!Object.hasOwn(left, key)) continue;
    const value = left[key];
    if (value === undefined || typeof value === "function" || typeof value === "symbol") continue;
    count++;
    if (!Object.hasOwn(right, key) || !sameValue(value, right[key], depth + 1)) return false;
  }
  for (const key in right) {
    if (!Object.hasOwn(right, key)) continue;
    const value = right[key];
    if (value !== undefined && typeof value !== "function" && typeof value !== "symbol") count--;
  }
  return count === 0;
}

/** Splits a trace into encoded chunks of about `chunkChars` characters each (an event is never split). */
export function* encodeTrace(trace: Trace, chunkChars: number): Generator<EncodedChunk> {
  const encoder = new TraceEncoder();
  let chunk: EncodedChunk = { messages: [], events: [], size: 0 };
  for (const event of trace) {
    const json = encoder.encodeEvent(event);
    const messages = encoder.takeMessages();
    let added = json.length;
    for (const message of messages) added += message.length;
    if (chunk.events.length > 0 && chunk.size + added > chunkChars) {
      yield chunk;
      chunk = { messages: [], events: [], size: 0 };
    }
    chunk.messages.push(...messages);
    chunk.events.push(json);
    chunk.size += added;
  }
  if (chunk.events.length > 0) yield chunk;
}

export class TraceDecodeError extends Error {
  override name = "TraceDecodeError";
}

/** Rebuilds a trace from decoded chunks; checks that events are numbered in order and refer only to known entries. */
export class TraceDecoder {
  readonly #table: unknown[] = [];
  readonly #events: TraceEvent[] = [];

  get events(): Trace {
    return this.#events;
  }

  addMessages(messages: readonly unknown[]): void {
    for (const message of messages) this.#table.push(message);
  }

  addEvent(raw: Record<string, unknown>): void {
    const seq = this.#events.length;
    if (raw["seq"] !== seq) throw new TraceDecodeError(`trace event ${seq} is numbered ${JSON.stringify(raw["seq"])}`);
    const type = raw["type"] as TraceEvent["type"];
    if (type === "run-end") {
      const histories = raw["histories"];
      if (histories === null || typeof histories !== "object" || Array.isArray(histories)) throw new TraceDecodeError(`trace event ${seq}: run-end without histories`);
      const resolved: Record<string, unknown[]> = {};
      for (const [session, refs] of Object.entries(histories as Record<string, unknown>)) resolved[session] = this.#resolve(refs, seq);
      raw["histories"] = resolved;
    } else {
      for (const field of LIST_FIELDS[type] ?? []) {
        const value = raw[field];
        if (value !== null && value !== undefined) raw[field] = this.#resolve(value, seq);
      }
    }
    this.#events.push(raw as unknown as TraceEvent);
  }

  #resolve(refs: unknown, seq: number): unknown[] {
    if (!Array.isArray(refs)) throw new TraceDecodeError(`trace event ${seq}: a message list is not a list of references`);
    const out = new Array<unknown>(refs.length);
    for (let index = 0; index < refs.length; index++) {
      const ref = refs[index] as unknown;
      if (typeof ref !== "number" || !Number.isInteger(ref) || ref < 0 || ref >= this.#table.length) {
        throw new TraceDecodeError(`trace event ${seq}: reference ${JSON.stringify(ref)} is not in the message table (${this.#table.length} entries)`);
      }
      out[index] = this.#table[ref];
    }
    return out;
  }
}

/** Encode and decode a whole trace in one process: the trace a parent would receive from a player. */
export function reshipTrace(trace: Trace): Trace {
  const decoder = new TraceDecoder();
  for (const chunk of encodeTrace(trace, Number.POSITIVE_INFINITY)) {
    decoder.addMessages(chunk.messages.map((json) => JSON.parse(json) as unknown));
    for (const event of chunk.events) decoder.addEvent(JSON.parse(event) as Record<string, unknown>);
  }
  return decoder.events;
}
