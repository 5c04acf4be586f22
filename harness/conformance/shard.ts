import type { Shard } from "./check-result.ts";
import { sourcesOf } from "./sources.ts";
import type { Check } from "./types.ts";

export type { Shard } from "./check-result.ts";

/** Parses `i/n` (1 ≤ i ≤ n); null when the text is not a shard. */
export function parseShard(text: string): Shard | null {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!match) return null;
  const [index, count] = [Number(match[1]), Number(match[2])];
  return index >= 1 && count >= 1 && index <= count ? { index, count } : null;
}

/**
 * The checks of one shard. Checks that read the same runs stay together (a run is played once
 * per shard), and the groups are dealt round-robin in catalogue order, so shards are disjoint,
 * cover the catalogue and do not depend on the machine.
 */
export function shardChecks(checks: readonly Check[], shard: Shard): Check[] {
  const groups = new Map<string, Check[]>();
  for (const check of checks) {
    const key = sourcesOf(check, true).join(",");
    groups.set(key, [...(groups.get(key) ?? []), check]);
  }
  const chosen = new Set<Check>();
  [...groups.values()].forEach((group, position) => {
    if (position % shard.count === shard.index - 1) for (const check of group) chosen.add(check);
  });
  return checks.filter((check) => chosen.has(check));
}
