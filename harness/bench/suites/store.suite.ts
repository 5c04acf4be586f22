/** The store suite: appends and restores per second, and how a legacy store's upgrade converges. */
import { integer, number, type Infer } from "../../util/schema.ts";
import { nanoseconds, withInterval, withThousands } from "../../util/format.ts";
import { judgeGoal } from "../goals.ts";
import { NoiseProbe } from "../noise.ts";
import { estimateReason, noiseReason } from "../reliability.ts";
import { medianWithInterval, relativeHalfWidth } from "../stats.ts";
import { defineSuite, estimateSchema, noiseNote, suiteShape, warningNotes } from "../suite.ts";

const ratio = () => number({ minimum: 0 });

export const storeShape = suiteShape("store", "Store", {
  appendsPerSecond: estimateSchema(0),
  restoresPerSecond: estimateSchema(0),
  legacyRows: integer({ minimum: 0 }),
  opensToConverge: integer({ minimum: 0 }),
  longestWriteLockMs: ratio(),
});

export type StoreSuite = Infer<typeof storeShape>;

/** The store benchmark in the result JSON's shape, with its two goals: the harness's figures, not an engine's. */
export async function runStoreSuite(options: { dir: string; rows?: number; legacyRows?: number }): Promise<StoreSuite> {
  const started = performance.now();
  const probe = new NoiseProbe();
  const { runStoreBench } = await import("./store.ts");
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

export const storeSuite = defineSuite({
  name: "store",
  description: "the session store: appends and restores per second, and the v30 upgrade's convergence and write locks",
  shape: storeShape,
  drivesEngines: false,
  run: (context) => runStoreSuite({ dir: context.scratchDir, ...(context.quick ? { rows: 50_000, legacyRows: 100_000 } : {}) }),
  tables: (suite) => [
    {
      id: "store",
      harness: true,
      title: "Session store",
      headers: ["Appends/s (95 % CI)", "Restores/s (95 % CI)", "Legacy rows", "Opens to converge", "Longest write lock"],
      rows: [
        [
          withInterval(suite.appendsPerSecond, ""),
          withInterval(suite.restoresPerSecond, ""),
          withThousands(suite.legacyRows),
          String(suite.opensToConverge),
          nanoseconds(suite.longestWriteLockMs * 1e6),
        ],
      ],
      notes: [...noiseNote(suite.noise), ...warningNotes(suite)],
    },
  ],
  charts: () => [],
  figures: (suite) => ({
    "store/appends-per-second": { value: suite.appendsPerSecond.value, relativeUncertainty: relativeHalfWidth(suite.appendsPerSecond), higherIsBetter: true },
    "store/restores-per-second": { value: suite.restoresPerSecond.value, relativeUncertainty: relativeHalfWidth(suite.restoresPerSecond), higherIsBetter: true },
    "store/longest-write-lock-ms": { value: suite.longestWriteLockMs, relativeUncertainty: 0, higherIsBetter: false },
  }),
});
