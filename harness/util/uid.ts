import { sha256Hex } from "./sha256.ts";

/**
 * The deterministic uids of ctxbench: 32 lowercase hex characters, the shape of the store's
 * message and tool-call uids. `uidFor` names a uid by a label (test data that must point at a
 * row); `createSeededMinter` draws a sequence from a seed (a seeded play's store).
 */

/** Produces one fresh message or tool-call uid: 32 lowercase hex characters. */
export type UidMinter = () => string;

export const UID_PATTERN = /^[0-9a-f]{32}$/;

/** The uid a label names: the first 32 hex characters of its sha256. Same label, same uid. */
export function uidFor(label: string): string {
  return sha256Hex(label).slice(0, 32);
}

/** A deterministic minter for seeded runs: the same seed yields the same uid sequence (xorshift128+). */
export function createSeededMinter(seed: number | bigint): UidMinter {
  const mask = (1n << 64n) - 1n;
  let s0 = splitMix(BigInt(seed) & mask);
  let s1 = splitMix(s0);
  const next = (): bigint => {
    let x = s0;
    const y = s1;
    s0 = y;
    x ^= (x << 23n) & mask;
    s1 = x ^ y ^ (x >> 17n) ^ (y >> 26n);
    return (s1 + y) & mask;
  };
  return () => next().toString(16).padStart(16, "0") + next().toString(16).padStart(16, "0");
}

function splitMix(value: bigint): bigint {
  const mask = (1n << 64n) - 1n;
  let z = (value + 0x9e3779b97f4a7c15n) & mask;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & mask;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & mask;
  return z ^ (z >> 31n);
}
