/**
 * The simulated provider's prompt cache, one per session. The model:
 *
 * - A request is a chain of prefixes: prefix k is messages[0..k]. Each prefix is identified by its
 *   messages' digests (a node in a trie of every prefix seen) and has a token count (the exact
 *   tokens of its messages).
 * - Writing: every cache breakpoint of a request stores the prefix that ends at it.
 * - Reading: `cache_read_tokens` is the token count of the longest prefix of the request that an
 *   earlier request of the same session stored; a request whose first message differs reads 0.
 * - `cache_write_tokens` is what the request newly stores: the tokens up to its last breakpoint
 *   minus what it read (never negative).
 * - No minimum cacheable length and no expiry: a scenario is short and simulated time is not
 *   wall-clock time, so both would only hide prefix changes the benchmark wants to see.
 */
export class PromptCache {
  readonly #stored = new Set<number>();

  /** Look up and update the cache for one request; `prefixes` come from a `PrefixTrie`. */
  account(prefixes: readonly PrefixEntry[], breakpoints: readonly number[]): { read: number; write: number } {
    let read = 0;
    for (let index = prefixes.length - 1; index >= 0; index--) {
      const entry = prefixes[index]!;
      if (this.#stored.has(entry.node)) {
        read = entry.tokens;
        break;
      }
    }
    let lastBreakpointTokens = 0;
    for (const breakpoint of breakpoints) {
      const entry = prefixes[breakpoint];
      if (entry === undefined) continue;
      this.#stored.add(entry.node);
      lastBreakpointTokens = Math.max(lastBreakpointTokens, entry.tokens);
    }
    return { read, write: Math.max(0, lastBreakpointTokens - read) };
  }

  get size(): number {
    return this.#stored.size;
  }
}

export interface PrefixEntry {
  /** The trie node naming messages[0..k]: equal prefixes get equal nodes. */
  node: number;
  /** Exact tokens of messages[0..k]. */
  tokens: number;
}

/** Every message prefix the provider has seen, as a trie keyed by each message's digest (or any key equal for equal messages). */
export class PrefixTrie {
  readonly #children = new Map<number, Map<string | number, number>>();
  #nextNode = 1;

  /** The prefix nodes and cumulative tokens of a request, from per-message digests and counts. */
  chain(messageDigests: readonly (string | number)[], messageTokens: readonly number[]): PrefixEntry[] {
    const out: PrefixEntry[] = [];
    let node = 0;
    let tokens = 0;
    for (let index = 0; index < messageDigests.length; index++) {
      let children = this.#children.get(node);
      if (children === undefined) {
        children = new Map();
        this.#children.set(node, children);
      }
      const digest = messageDigests[index]!;
      let child = children.get(digest);
      if (child === undefined) {
        child = this.#nextNode++;
        children.set(digest, child);
      }
      node = child;
      tokens += messageTokens[index]!;
      out.push({ node, tokens });
    }
    return out;
  }
}
