import { randomBytes } from "node:crypto";
import type { Message } from "../contract/types.ts";

/** Produces one fresh message or tool-call uid: 32 lowercase hex characters. */
export type UidMinter = () => string;

export const UID_PATTERN = /^[0-9a-f]{32}$/;

const POOL_UIDS = 512;

/**
 * The default minter: random bytes from the OS, drawn in pools so a large batch does not pay one
 * system call per row. Uids are identity, never derived from content or time.
 */
export function createRandomMinter(): UidMinter {
  let pool = "";
  let offset = 0;
  return () => {
    if (offset >= pool.length) {
      pool = randomBytes(16 * POOL_UIDS).toString("hex");
      offset = 0;
    }
    const uid = pool.slice(offset, offset + 32);
    offset += 32;
    return uid;
  };
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

/** Any non-empty string counts as a uid; anything else is "no identity yet". */
export function uidOrNull(value: unknown): string | null {
  return typeof value === "string" && value.length > 0 ? value : null;
}

/** Keeps the message's uid, or mints one and writes it onto the caller's object. */
export function stampMessageUid(message: Message, mint: UidMinter): string {
  const existing = uidOrNull(message.message_uid);
  if (existing !== null) return existing;
  const uid = mint();
  message.message_uid = uid;
  return uid;
}
