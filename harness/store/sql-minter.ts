import { randomBytes } from "node:crypto";
import type { Database } from "better-sqlite3";
import type { UidMinter } from "./uid.ts";

const HEX32 = /^[0-9a-f]{32}$/;

/**
 * Routes SQLite's `randomblob(16)` on this connection through the injected minter, so the uids
 * the backfill and the older-build trigger mint in SQL (`lower(hex(randomblob(16)))`, the
 * upstream text) follow the same seed as the uids minted in TypeScript.
 */
export function routeSqlMinting(db: Database, mint: UidMinter): void {
  db.function("randomblob", { deterministic: false, varargs: false }, (size: unknown) => {
    const n = typeof size === "number" || typeof size === "bigint" ? Math.max(1, Number(size)) : 1;
    if (n === 16) {
      const uid = mint();
      if (HEX32.test(uid)) return Buffer.from(uid, "hex");
    }
    return randomBytes(n);
  });
}
