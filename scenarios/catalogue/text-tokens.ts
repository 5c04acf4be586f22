import { countTokensExact } from "../../harness/contract/tokens-exact.ts";
import { readCacheFile, writeCacheFile } from "../../harness/util/build-cache.ts";
import { scenarioCacheDirectory } from "./cache.ts";

/**
 * A catalogue scenario's exact token counts, counted once per build and seed and kept in the disk
 * cache beside the scenario, so the players that play it do not count its texts again (counting
 * was about a tenth of a player's time, and the texts a player counts are nearly all the
 * scenario's own: its messages' contents as the host sends them).
 *
 * Shorter texts are left to the counter, which remembers every word it has counted: listing them
 * would only lengthen the play command.
 */
const MIN_CHARS = 64;

/** The scenario's distinct texts of MIN_CHARS or more, in the order a walk of its JSON meets them (the same on both sides of the channel). */
export function scenarioTexts(scenario: unknown): string[] {
  const seen = new Set<string>();
  const walk = (value: unknown): void => {
    if (typeof value === "string") {
      if (value.length >= MIN_CHARS) seen.add(value);
    } else if (Array.isArray(value)) {
      for (const item of value) walk(item);
    } else if (value !== null && typeof value === "object") {
      for (const key of Object.keys(value)) walk((value as Record<string, unknown>)[key]);
    }
  };
  walk(scenario);
  return [...seen];
}

/** What the cache file holds: the counts, and the texts' total length to tell them from another scenario's. */
interface StoredCounts {
  characters: number;
  counts: number[];
}

/**
 * The exact counts of `scenarioTexts(scenario)` for the catalogue's `name` at `seed`: read from the
 * cache, else counted and stored there. Undefined without a cache directory (nothing to keep them
 * in: the players count as they play).
 */
export function catalogueTextTokens(name: string, seed: number, scenario: unknown, directory: string | undefined = scenarioCacheDirectory()): number[] | undefined {
  if (directory === undefined || !Number.isSafeInteger(seed) || !/^[a-z0-9-]+$/.test(name)) return undefined;
  const texts = scenarioTexts(scenario);
  let characters = 0;
  for (const text of texts) characters += text.length;
  const file = `${name}.seed-${seed}.tokens.json`;
  const cached = readCacheFile(directory, file);
  if (cached !== undefined) {
    try {
      const stored = JSON.parse(cached) as StoredCounts;
      if (stored.characters === characters && Array.isArray(stored.counts) && stored.counts.length === texts.length && stored.counts.every(isCount)) return stored.counts;
    } catch {
      // a damaged entry: counted again and rewritten below
    }
  }
  const counts = texts.map(countTokensExact);
  writeCacheFile(directory, file, JSON.stringify({ characters, counts } satisfies StoredCounts));
  return counts;
}

const isCount = (value: unknown): boolean => Number.isSafeInteger(value) && (value as number) >= 0;
