import { plainJsonCopy } from "./json-copy.ts";
import { sameJson } from "./json-equal.ts";

/**
 * select_context's `request_messages` sent by reference (docs/engine-protocol.md, "Messages by
 * reference"). The host sends the whole request on every call, and from one call to the next all
 * but the newest messages are the same: an engine side that announces the `message-refs` feature
 * keeps each message it was sent once (by number) and gets
 * `{"$refs": [n, …], "define": {"n": message, …}, "reset"?: true}`: the numbers of the request's
 * messages in order, and the messages it has not been sent before. It builds separate objects from
 * its copies for every call, so the engine receives what a full send would give it. `reset` drops
 * every kept message first (the host's bound on what the engine side keeps).
 */
export const MESSAGE_REFS_FEATURE = "message-refs";

export interface MessageRefs {
  $refs: number[];
  define: Record<string, unknown>;
  reset?: true;
}

export interface MessageRefLimits {
  /** Messages the engine side keeps at most (default 8192). */
  maxMessages?: number;
  /** Characters of JSON it keeps at most (default 64 Mi). */
  maxChars?: number;
}

interface Kept {
  id: number;
  /** The message as the engine side holds it: its JSON, parsed (or an equal copy sharing the message's strings, so the next comparison is cheap). */
  value: unknown;
}

/**
 * The host's half: which messages the engine side holds, and their numbers. One per engine
 * process. A request is mostly the last one's messages at the same places, so each message is
 * first compared with the one sent at its place last time (field by field, the shared strings
 * compare at once); only the others are written as JSON and looked up by their text.
 */
export class MessageRefEncoder {
  readonly #byText = new Map<string, Kept>();
  readonly #maxMessages: number;
  readonly #maxChars: number;
  #last: Kept[] = [];
  #next = 1;
  #chars = 0;

  constructor(limits: MessageRefLimits = {}) {
    this.#maxMessages = limits.maxMessages ?? 8192;
    this.#maxChars = limits.maxChars ?? 64 * 1024 * 1024;
  }

  /** The request by reference; every message must be a JSON object (`referable`), else it goes in full. */
  encode(messages: readonly unknown[]): MessageRefs {
    const found: Array<Kept | string> = messages.map((message, index) => {
      const last = this.#last[index];
      if (last !== undefined && sameJson(message, last.value)) return last;
      const text = JSON.stringify(message);
      return this.#byText.get(text) ?? text;
    });
    const fresh = found.filter((entry): entry is string => typeof entry === "string");
    const freshChars = fresh.reduce((sum, text) => sum + text.length, 0);
    const reset = fresh.length > 0 && (this.#byText.size + fresh.length > this.#maxMessages || this.#chars + freshChars > this.#maxChars);
    if (reset) {
      this.#byText.clear();
      this.#chars = 0;
    }
    const define: Record<string, unknown> = {};
    const kept = found.map((entry, index) => {
      const text = typeof entry === "string" ? entry : reset ? JSON.stringify(messages[index]) : null;
      if (text === null) return entry as Kept;
      const message = messages[index];
      const known = this.#byText.get(text);
      if (known !== undefined) return known;
      const added: Kept = { id: this.#next++, value: plainJsonCopy(message) ?? (JSON.parse(text) as unknown) };
      this.#byText.set(text, added);
      this.#chars += text.length;
      define[added.id] = added.value;
      return added;
    });
    this.#last = kept;
    const refs = kept.map((entry) => entry.id);
    return reset ? { $refs: refs, define, reset: true } : { $refs: refs, define };
  }

  /** Messages the engine side holds now. */
  get size(): number {
    return this.#byText.size;
  }
}

/** Every message a plain JSON object: what can go by reference. */
export function referable(messages: readonly unknown[]): boolean {
  return messages.every(isRecord);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
