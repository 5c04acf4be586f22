import { randomBytes } from "node:crypto";
import type { Message } from "../contract/types.ts";
import type { UidMinter } from "../util/uid.ts";

export { createSeededMinter, UID_PATTERN, type UidMinter } from "../util/uid.ts";

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
