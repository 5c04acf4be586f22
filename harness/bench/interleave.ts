import { Bench } from "tinybench";
import { calibrationWork, hrClock, noiseOf, type Clock, type RunNoise } from "./noise.ts";
import { summarize, type SampleSummary } from "./stats.ts";

/** One contender: `run(n)` performs the measured operation n times. */
export interface Variant {
  name: string;
  run(iterations: number): void;
}

export interface InterleaveOptions {
  /** Rounds; each runs every variant once, in an order rotated per round. */
  rounds?: number;
  /** Samples of one variant in one round. */
  samplesPerRound?: number;
  /** One sample should take at least this long, so timer resolution is negligible. */
  minSampleNs?: number;
  /** Run each variant this long before calibrating, so the JIT has optimised it (default 150 ms). */
  warmupMs?: number;
  /** Nanosecond clock (default hrtime); tests pass a virtual one to play a load deterministically. */
  clock?: Clock;
  /** The fixed work measured beside the variants to gauge the machine's noise (default calibrationWork). */
  calibration?: (operations: number) => void;
}

export interface VariantMeasurement {
  name: string;
  /** Operations per timed sample (the batch). */
  batch: number;
  /** ns per operation, one value per sample. */
  samplesNs: number[];
  /** The same samples, one array per round. */
  perRound: number[][];
  summary: SampleSummary;
}

export interface InterleavedResult {
  variants: VariantMeasurement[];
  /** The calibration loop, measured in every round like a variant. */
  calibration: VariantMeasurement;
  /** The spread of the calibration loop's per-round medians: how steady the machine was. */
  noise: RunNoise;
  /** Warnings tinybench raised (timer saturation and the like), prefixed by variant. */
  warnings: string[];
}

export const CALIBRATION_VARIANT = "(calibration)";

/** Run a variant in growing batches for about `ns` nanoseconds. */
function warmUp(variant: Variant, ns: number, clock: Clock): void {
  const start = clock();
  let batch = 1;
  while (clock() - start < ns) {
    variant.run(batch);
    if (batch < 1 << 16) batch *= 2;
  }
}

/** Find a batch size so that one batch takes at least minSampleNs. */
export function calibrateBatch(variant: Variant, minSampleNs: number, clock: Clock = hrClock): number {
  let batch = 1;
  for (;;) {
    const start = clock();
    variant.run(batch);
    const elapsed = clock() - start;
    if (elapsed >= minSampleNs || batch >= 1 << 24) return batch;
    batch *= elapsed < minSampleNs / 16 ? 8 : 2;
  }
}

/**
 * Measure variants in one process, interleaved: round after round, each variant in turn with the
 * order rotated, so drift of the machine (frequency, other load, GC) hits all of them alike.
 * Each sample is a batch timed with the clock and handed to tinybench as an overridden duration.
 * A calibration loop takes its turn in every round too: the spread of its per-round medians is
 * the run's noise level, reported beside the figures.
 */
export async function measureInterleaved(variants: readonly Variant[], options: InterleaveOptions = {}): Promise<InterleavedResult> {
  const rounds = options.rounds ?? 8;
  const samplesPerRound = options.samplesPerRound ?? 40;
  const minSampleNs = options.minSampleNs ?? 50_000;
  const warmupNs = (options.warmupMs ?? 150) * 1e6;
  const clock = options.clock ?? hrClock;
  const work = options.calibration ?? calibrationWork;
  const all: Variant[] = [...variants, { name: CALIBRATION_VARIANT, run: work }];
  for (const variant of all) warmUp(variant, warmupNs, clock);
  const batches = all.map((v) => calibrateBatch(v, minSampleNs, clock));
  const perRound = all.map(() => [] as number[][]);
  const warnings = new Set<string>();

  for (let round = 0; round < rounds; round++) {
    // A fixed sample count, not a time budget: tinybench's budget adds up the overridden
    // durations, and a variant the JIT reduces to nothing (the no-engine baseline) would never
    // fill it.
    const bench = new Bench({
      time: 0,
      iterations: samplesPerRound,
      warmup: round === 0,
      warmupTime: 0,
      warmupIterations: samplesPerRound,
      retainSamples: true,
    });
    for (let k = 0; k < all.length; k++) {
      const index = (k + round) % all.length;
      const variant = all[index]!;
      const batch = batches[index]!;
      bench.add(variant.name, () => {
        const start = clock();
        variant.run(batch);
        return { overriddenDuration: (clock() - start) / 1e6 };
      });
    }
    bench.addEventListener("warning", (event) => {
      const reason = (event as unknown as { reason?: string }).reason;
      const task = (event as unknown as { task?: { name: string } }).task;
      if (reason && task?.name !== CALIBRATION_VARIANT) warnings.add(`${task?.name ?? "bench"}: ${reason}`);
    });
    await bench.run();
    for (const task of bench.tasks) {
      const index = all.findIndex((v) => v.name === task.name);
      const result = task.result;
      if (result.state === "errored") throw result.error;
      if (!("latency" in result)) continue;
      const batch = batches[index]!;
      perRound[index]!.push((result.latency.samples ?? []).map((ms) => (ms * 1e6) / batch));
    }
  }

  const measurements: VariantMeasurement[] = all.map((v, i) => {
    const samplesNs = perRound[i]!.flat();
    return { name: v.name, batch: batches[i]!, samplesNs, perRound: perRound[i]!, summary: summarize(samplesNs) };
  });
  const calibration = measurements.pop()!;
  return {
    variants: measurements,
    calibration,
    noise: noiseOf(calibration.perRound.map((samples) => summarize(samples).median)),
    warnings: [...warnings],
  };
}
