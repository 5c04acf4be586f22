import type { Database } from "better-sqlite3";
import { META_BACKFILL_CURSOR, META_BACKFILL_DONE, readMeta } from "./schema.ts";

export const DEFAULT_BACKFILL_CHUNK = 2000;
export const DEFAULT_BACKFILL_BUDGET_MS = 1000;

export interface BackfillOptions {
  /** Row ids per slice (an id range, not a row count). */
  chunk: number;
  /** Time one open may spend on slices; at least one slice always runs. */
  budgetMs: number;
  /** Monotonic milliseconds. */
  clock: () => number;
  /** Observes each committed slice (used to kill a backfill between slices in tests). */
  onSlice?: ((doneThroughId: number) => void) | undefined;
}

export interface BackfillProgress {
  /** True once every legacy row has a uid (the marker is set). */
  done: boolean;
  slices: number;
  rowsFilled: number;
  /** The longest time one slice held the write lock, in milliseconds. */
  longestSliceMs: number;
  /** How long each slice of this open held the write lock, in order. */
  sliceDurationsMs: number[];
  /** The highest row id covered so far. */
  doneThroughId: number;
}

/**
 * Gives legacy rows a uid in id-range slices (UID-8). Each slice is its own short write
 * transaction that also moves the cursor, so a killed backfill resumes where it stopped and other
 * writers never wait long for the lock. The marker, not the schema version, says it is finished.
 */
export function advanceMessageUidBackfill(db: Database, options: BackfillOptions): BackfillProgress {
  const progress: BackfillProgress = { done: true, slices: 0, rowsFilled: 0, longestSliceMs: 0, sliceDurationsMs: [], doneThroughId: 0 };
  if (readMeta(db, META_BACKFILL_DONE) !== null) return progress;
  let doneThrough = Number.parseInt(readMeta(db, META_BACKFILL_CURSOR) ?? "0", 10) || 0;
  const high = (db.prepare("SELECT COALESCE(MAX(id), 0) AS high FROM messages").get() as { high: number }).high;
  const fill = db.prepare(
    "UPDATE messages SET message_uid = lower(hex(randomblob(16))) WHERE id > ? AND id <= ? AND message_uid IS NULL",
  );
  const saveCursor = db.prepare("INSERT INTO state_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value");
  const slice = db.transaction((from: number, to: number) => {
    const changes = fill.run(from, to).changes;
    saveCursor.run(META_BACKFILL_CURSOR, String(to));
    return changes;
  });
  const deadline = options.clock() + options.budgetMs;
  while (doneThrough < high) {
    const upper = doneThrough + options.chunk;
    const started = options.clock();
    progress.rowsFilled += slice.immediate(doneThrough, upper);
    const held = options.clock() - started;
    progress.sliceDurationsMs.push(held);
    progress.longestSliceMs = Math.max(progress.longestSliceMs, held);
    progress.slices += 1;
    doneThrough = upper;
    progress.doneThroughId = doneThrough;
    options.onSlice?.(doneThrough);
    if (doneThrough < high && options.clock() >= deadline) {
      progress.done = false;
      return progress;
    }
  }
  db.transaction(() => {
    saveCursor.run(META_BACKFILL_DONE, "1");
    db.prepare("DELETE FROM state_meta WHERE key = ?").run(META_BACKFILL_CURSOR);
  }).immediate();
  return progress;
}
