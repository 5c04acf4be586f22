import type { StoreSuite } from "../../../reports/result.ts";
import { judgeGoal } from "../goals.ts";
import { NoiseProbe } from "../noise.ts";
import { estimateReason, noiseReason } from "../reliability.ts";
import { medianWithInterval } from "../stats.ts";
import { runStoreBench } from "./store.ts";

/** The store benchmark in the result JSON's shape, with its two goals: the harness's figures, not an engine's. */
export async function runStoreSuite(options: { dir: string; rows?: number; legacyRows?: number }): Promise<StoreSuite> {
  const started = performance.now();
  const probe = new NoiseProbe();
  const raw = await runStoreBench({ ...options, detailed: false, probe });
  const noise = probe.noise();
  const appendsPerSecond = medianWithInterval(raw.append.samplesPerSecond);
  const restoresPerSecond = medianWithInterval(raw.restore.samplesPerSecond);
  return {
    suite: "store",
    warnings: [],
    goals: [
      judgeGoal(
        { id: "appends", engine: null, description: "appends per second with uid minting, in batches of 1,000", limit: raw.append.goalPerSecond, floor: true, unit: "rows/s" },
        appendsPerSecond,
        estimateReason(appendsPerSecond, noise),
      ),
      judgeGoal(
        { id: "backfill-slice", engine: null, description: "longest write lock of one backfill slice", limit: raw.upgrade.goalSliceMs, unit: "ms" },
        raw.upgrade.longestSliceMs,
        noiseReason(noise),
      ),
    ],
    noise,
    durationMs: performance.now() - started,
    appendsPerSecond,
    restoresPerSecond,
    legacyRows: raw.upgrade.legacyRows,
    opensToConverge: raw.upgrade.opensToConverge,
    longestWriteLockMs: raw.upgrade.longestWriteLockMs,
  };
}
