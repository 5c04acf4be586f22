import { createRequire } from "node:module";
import { buildCacheDirectory, readCacheBytes, writeCacheFile } from "../util/build-cache.ts";
import { BpeCounter, type BpeRanks } from "./bpe-count.ts";
import { decodeRankTable, encodeRankTable } from "./rank-table-file.ts";
import { PERSISTENCE_ONLY_MESSAGE_FIELDS } from "./persistence-fields.ts";
import type { Message } from "./types.ts";

/** The encoding of the exact estimator (the GPT-4o family's). */
export const EXACT_ENCODING = "o200k_base";
// Per the OpenAI chat format: each message is framed by three tokens, a name adds one, and the
// reply is primed with three more.
const TOKENS_PER_MESSAGE = 3;
const TOKENS_PER_NAME = 1;
const REPLY_PRIMING = 3;

let encoder: BpeCounter | undefined;
// Hosts re-estimate the same history every turn; remembering recent texts makes that nearly free.
const CACHE_LIMIT = 8192;
const cache = new Map<string, number>();

// The ranks table is megabytes of JavaScript: load it on first use only, synchronously, and once
// per process. js-tiktoken ships the table; counting is ours (the same merges, several times faster).
function getEncoder(): BpeCounter {
  encoder ??= loadExactCounter(buildCacheDirectory("tokenizer"));
  return encoder;
}

/**
 * The counter, from the rank table this build stored in `directory` (the disk cache,
 * harness/util/build-cache.ts), else built from js-tiktoken's ranks and stored there. The build
 * id covers package.json, which pins js-tiktoken's exact version, so the stored table is the one
 * the ranks make; a file that does not read back whole and well-shaped is built again.
 */
export function loadExactCounter(directory: string | undefined): BpeCounter {
  const file = `${EXACT_ENCODING}.bin`;
  const stored = directory === undefined ? undefined : readCacheBytes(directory, file);
  if (stored !== undefined) {
    try {
      const { patStr, table } = decodeRankTable(stored);
      return new BpeCounter({ pat_str: patStr, table });
    } catch {
      // built again and rewritten below
    }
  }
  const require = createRequire(import.meta.url);
  const loaded = require(`js-tiktoken/ranks/${EXACT_ENCODING}`) as BpeRanks | { default: BpeRanks };
  const ranks = "default" in loaded ? loaded.default : loaded;
  const counter = new BpeCounter(ranks);
  if (directory !== undefined) writeCacheFile(directory, file, encodeRankTable(ranks.pat_str, counter.table));
  return counter;
}

/**
 * Counts made before, elsewhere (a catalogue scenario's texts travel to a player with their counts,
 * counted once per build: scenarios/catalogue/text-tokens.ts). A count is a function of the text
 * alone, so counts of every scenario a process plays can share one table; it is emptied when it
 * holds more than REMEMBERED_LIMIT texts.
 */
const REMEMBERED_LIMIT = 50_000;
const remembered = new Map<string, number>();

/** Remembers `counts[i]` as the exact count of `texts[i]`; false (nothing remembered) when the two lists do not pair up. */
export function rememberTokenCounts(texts: readonly string[], counts: readonly unknown[]): boolean {
  if (texts.length !== counts.length || !counts.every((count) => Number.isSafeInteger(count) && (count as number) >= 0)) return false;
  if (remembered.size + texts.length > REMEMBERED_LIMIT) remembered.clear();
  for (let index = 0; index < texts.length; index++) remembered.set(texts[index]!, counts[index] as number);
  return true;
}

/** Exact token count of a text; special-token markers count as the plain text they are. */
export function countTokensExact(text: string): number {
  if (text === "") return 0;
  const known = remembered.get(text) ?? cache.get(text);
  if (known !== undefined) return known;
  const count = getEncoder().count(text);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(text, count);
  return count;
}

/** Exact tokens of one message as sent: persistence-only fields are ignored (WIRE-2). */
export function estimateMessageTokensExact(message: Message): number {
  let tokens = TOKENS_PER_MESSAGE;
  for (const key in message) {
    if (PERSISTENCE_ONLY_MESSAGE_FIELDS.has(key)) continue;
    const value = message[key];
    if (value === undefined || value === null) continue;
    tokens += countTokensExact(typeof value === "string" ? value : JSON.stringify(value));
    if (key === "name") tokens += TOKENS_PER_NAME;
  }
  return tokens;
}

/** Exact token count of a message list, including the reply priming; 0 for an empty list. */
export function estimateTokensExact(messages: readonly Message[]): number {
  if (messages.length === 0) return 0;
  let total = REPLY_PRIMING;
  for (const message of messages) total += estimateMessageTokensExact(message);
  return total;
}
