import type { Database } from "better-sqlite3";
import { cachedStatement } from "./statement-cache.ts";

/**
 * Archive marks: how a committed compaction archives a session's rows without rewriting them.
 *
 * Archiving in place used to be `UPDATE messages SET active = 0, compacted = 1` over every row the
 * pass replaced, and SQLite rebuilds each row it updates: about 40 ms at 10,000 messages, most of
 * the host's share of a pass. A pass now raises the session's mark instead: every row of the
 * session with `id <= through_id` counts as archived by compaction (`active = 0, compacted = 1`)
 * whatever its stored flags say. The stored flags are brought in line later, in bounded slices
 * ("settling": at every open, and in full when a file-backed store closes), after which the mark
 * goes. Until then every read of this store derives the flags from the mark; a build that does not
 * know the table sees the archived rows as active, so a store is settled before anyone else reads
 * it in the ordinary course (close), and after a crash at its next open.
 *
 * Only a row stored active can be archived by a mark, as the eager UPDATE only touched those: a
 * row a rewind archived earlier (`active = 0, compacted = 0`) keeps its flags.
 */
export const ARCHIVE_MARKS_TABLE = "session_archive_marks";

export const ARCHIVE_MARKS_SQL = `CREATE TABLE IF NOT EXISTS ${ARCHIVE_MARKS_TABLE} (
  session_id TEXT PRIMARY KEY,
  through_id INTEGER NOT NULL
)`;

export const DEFAULT_SETTLE_CHUNK = 2000;
export const DEFAULT_SETTLE_BUDGET_MS = 1000;

export interface SettleOptions {
  /** Rows per slice (one short write transaction each). */
  chunk: number;
  /** Time the settling may take; at least one slice runs. Infinity settles everything. */
  budgetMs: number;
  /** Monotonic milliseconds. */
  clock: () => number;
}

export interface SettleProgress {
  /** No mark is left: every stored flag says what the marks said. */
  done: boolean;
  slices: number;
  rowsSettled: number;
  /** The longest time one slice held the write lock, in milliseconds. */
  longestSliceMs: number;
}

/** The session's mark: its rows with an id up to this are archived (0: none). */
export function readArchiveMark(db: Database, sessionId: string): number {
  const row = cachedStatement(db, `SELECT through_id FROM ${ARCHIVE_MARKS_TABLE} WHERE session_id = ?`).get(sessionId) as { through_id: number } | undefined;
  return row?.through_id ?? 0;
}

/** Archives every row of the session up to `throughId` (inside the caller's write transaction); a mark never moves back. */
export function raiseArchiveMark(db: Database, sessionId: string, throughId: number): void {
  cachedStatement(
    db,
    `INSERT INTO ${ARCHIVE_MARKS_TABLE} (session_id, through_id) VALUES (?, ?)
     ON CONFLICT(session_id) DO UPDATE SET through_id = MAX(through_id, excluded.through_id)`,
  ).run(sessionId, throughId);
}

/** The stored flags of a row read under a mark: archived by compaction when it is at or below it. */
export function derivedFlags(id: number, active: number, compacted: number, mark: number): { active: number; compacted: number } {
  return active === 1 && id <= mark ? { active: 0, compacted: 1 } : { active, compacted };
}

/**
 * Writes the marks into the stored flags, oldest rows first, one slice of at most `chunk` rows per
 * write transaction, and drops each mark once its rows are written. A slice re-reads the mark
 * inside its transaction, so a mark another connection raised meanwhile is honoured, not lost.
 */
export function settleArchiveMarks(db: Database, options: SettleOptions): SettleProgress {
  const progress: SettleProgress = { done: true, slices: 0, rowsSettled: 0, longestSliceMs: 0 };
  const marks = db.prepare(`SELECT session_id FROM ${ARCHIVE_MARKS_TABLE} ORDER BY session_id`).pluck();
  const pending = db.prepare(
    "SELECT id FROM messages WHERE session_id = ? AND active = 1 AND id <= ? ORDER BY id LIMIT ?",
  ).pluck();
  const archive = db.prepare("UPDATE messages SET active = 0, compacted = 1 WHERE session_id = ? AND active = 1 AND id <= ?");
  const drop = db.prepare(`DELETE FROM ${ARCHIVE_MARKS_TABLE} WHERE session_id = ?`);
  const slice = db.transaction((sessionId: string): number => {
    const mark = readArchiveMark(db, sessionId);
    const ids = pending.all(sessionId, mark, options.chunk) as number[];
    const last = ids[ids.length - 1];
    const settled = last === undefined ? 0 : archive.run(sessionId, last).changes;
    if (ids.length < options.chunk) drop.run(sessionId);
    return settled;
  });
  const deadline = options.clock() + options.budgetMs;
  for (const sessionId of marks.all() as string[]) {
    for (;;) {
      if (progress.slices > 0 && options.clock() >= deadline) {
        progress.done = false;
        return progress;
      }
      const started = options.clock();
      const settled = slice.immediate(sessionId);
      progress.longestSliceMs = Math.max(progress.longestSliceMs, options.clock() - started);
      progress.slices += 1;
      progress.rowsSettled += settled;
      if (readArchiveMark(db, sessionId) === 0) break;
    }
  }
  return progress;
}
