import { createHash } from "node:crypto";

/**
 * The simulated provider's prompt cache, one per session. The model:
 *
 * - A request is a chain of prefixes: prefix k is messages[0..k]. Each prefix has a hash (chained
 *   over the canonical JSON of its messages) and a token count (the exact tokens of its messages).
 * - Writing: every cache breakpoint of a request stores the prefix that ends at it.
 * - Reading: `cache_read_tokens` is the token count of the longest prefix of the request that an
 *   earlier request of the same session stored; a request whose first message differs reads 0.
 * - `cache_write_tokens` is what the request newly stores: the tokens up to its last breakpoint
 *   minus what it read (never negative).
 * - No minimum cacheable length and no expiry: a scenario is short and simulated time is not
 *   wall-clock time, so both would only hide prefix changes the benchmark wants to see.
 */
export class PromptCache {
  readonly #stored = new Map<string, number>();

  /** Look up and update the cache for one request; `prefixes` come from `prefixChain`. */
  account(prefixes: readonly PrefixEntry[], breakpoints: readonly number[]): { read: number; write: number } {
    let read = 0;
    for (let index = prefixes.length - 1; index >= 0; index--) {
      const entry = prefixes[index]!;
      if (this.#stored.has(entry.hash)) {
        read = entry.tokens;
        break;
      }
    }
    let lastBreakpointTokens = 0;
    for (const breakpoint of breakpoints) {
      const entry = prefixes[breakpoint];
      if (entry === undefined) continue;
      this.#stored.set(entry.hash, entry.tokens);
      lastBreakpointTokens = Math.max(lastBreakpointTokens, entry.tokens);
    }
    return { read, write: Math.max(0, lastBreakpointTokens - read) };
  }

  get size(): number {
    return this.#stored.size;
  }
}

export interface PrefixEntry {
  hash: string;
  /** Exact tokens of messages[0..k]. */
  tokens: number;
}

/** Chained prefix hashes and cumulative tokens of a request, from per-message keys and counts. */
export function prefixChain(messageKeys: readonly string[], messageTokens: readonly number[]): PrefixEntry[] {
  const out: PrefixEntry[] = [];
  let hash = "";
  let tokens = 0;
  for (let index = 0; index < messageKeys.length; index++) {
    hash = createHash("sha256").update(hash).update("\u0000").update(messageKeys[index]!).digest("hex");
    tokens += messageTokens[index]!;
    out.push({ hash, tokens });
  }
  return out;
}
