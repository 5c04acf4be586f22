import type { StoreSuite } from "../../../reports/result.ts";
import { runStoreBench } from "./store.ts";

/** The store benchmark in the result JSON's shape, with its two goals. */
export async function runStoreSuite(options: { dir: string; rows?: number; legacyRows?: number }): Promise<StoreSuite> {
  const started = performance.now();
  const raw = await runStoreBench(options);
  return {
    suite: "store",
    warnings: [],
    goals: [
      { id: "appends", description: "appends per second with uid minting, in batches of 1,000", limit: raw.append.goalPerSecond, floor: true, measured: raw.append.appendsPerSecond, unit: "rows/s", met: raw.append.meetsGoal },
      { id: "backfill-slice", description: "longest write lock of one backfill slice", limit: raw.upgrade.goalSliceMs, measured: raw.upgrade.longestSliceMs, unit: "ms", met: raw.upgrade.meetsGoal },
    ],
    durationMs: performance.now() - started,
    appendsPerSecond: raw.append.appendsPerSecond,
    restoresPerSecond: raw.restore.restoresPerSecond,
    legacyRows: raw.upgrade.legacyRows,
    opensToConverge: raw.upgrade.opensToConverge,
    longestWriteLockMs: raw.upgrade.longestWriteLockMs,
  };
}
