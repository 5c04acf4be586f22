import type { Database } from "better-sqlite3";
import type { Message } from "../contract/types.ts";
import { openConnection } from "./open-file.ts";
import { bindValues, COPIED_COLUMNS, validateBatch } from "./rows.ts";
import { ensureLegacyLayout, readSchemaVersion } from "./schema.ts";
import { routeSqlMinting } from "./sql-minter.ts";
import type { UidMinter } from "./uid.ts";

/** The columns an older build writes: the leading ones of the store's own encoding, up to the timestamp. */
const LEGACY_COLUMNS = COPIED_COLUMNS.slice(0, COPIED_COLUMNS.indexOf("timestamp") + 1);

/**
 * Writes a store the way a build from before message identity (schema v30) does: it creates the
 * v30 layout when the file is new and inserts rows without any identity column. On a v31 store
 * the insert trigger gives its rows uids; on a v30 store they wait for the upgrade's backfill.
 */
export class OlderBuildWriter {
  readonly #db: Database;
  readonly #now: () => number;

  private constructor(db: Database, now: () => number) {
    this.#db = db;
    this.#now = now;
  }

  /** `mintUid` seeds the uids the v31 insert trigger gives this writer's rows (SQL `randomblob`). */
  static open(path: string, options: { now?: () => number; busyTimeoutMs?: number; mintUid?: UidMinter } = {}): OlderBuildWriter {
    const db = openConnection(path, options.busyTimeoutMs ?? 5000);
    try {
      if (options.mintUid !== undefined) routeSqlMinting(db, options.mintUid);
      if (readSchemaVersion(db) === null) ensureLegacyLayout(db);
    } catch (error) {
      db.close();
      throw error;
    }
    return new OlderBuildWriter(db, options.now ?? (() => Date.now() / 1000));
  }

  /** Appends rows with the v30 column set only; returns their row ids. */
  append(sessionId: string, messages: Message[]): number[] {
    validateBatch(messages);
    const session = this.#db.prepare("INSERT OR IGNORE INTO sessions (id, source, started_at) VALUES (?, 'older-build', ?)");
    const insert = this.#db.prepare(`INSERT INTO messages (session_id, ${LEGACY_COLUMNS.join(", ")}) VALUES (?${", ?".repeat(LEGACY_COLUMNS.length)})`);
    return this.#db
      .transaction(() => {
        session.run(sessionId, this.#now());
        return messages.map((message) => {
          const timestamp = typeof message.timestamp === "number" ? message.timestamp : this.#now();
          const result = insert.run(sessionId, ...bindValues(message, timestamp).slice(0, LEGACY_COLUMNS.length));
          return Number(result.lastInsertRowid);
        });
      })
      .immediate();
  }

  close(): void {
    if (this.#db.open) this.#db.close();
  }
}

/** Creates (or extends) a v30 store holding the given sessions, as a legacy-store scenario needs. */
export function writeLegacyStore(
  path: string,
  sessions: ReadonlyArray<{ id: string; messages: Message[] }>,
  options: { now?: () => number; mintUid?: UidMinter } = {},
): void {
  const writer = OlderBuildWriter.open(path, options);
  try {
    for (const session of sessions) writer.append(session.id, session.messages);
  } finally {
    writer.close();
  }
}
