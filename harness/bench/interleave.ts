import { Bench } from "tinybench";
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
}

export interface VariantMeasurement {
  name: string;
  /** Operations per timed sample (the batch). */
  batch: number;
  /** ns per operation, one value per sample. */
  samplesNs: number[];
  summary: SampleSummary;
}

export interface InterleavedResult {
  variants: VariantMeasurement[];
  /** Warnings tinybench raised (timer saturation and the like), prefixed by variant. */
  warnings: string[];
}

/** Run a variant in growing batches for about `ns` nanoseconds. */
function warmUp(variant: Variant, ns: number): void {
  const start = process.hrtime.bigint();
  let batch = 1;
  while (Number(process.hrtime.bigint() - start) < ns) {
    variant.run(batch);
    if (batch < 1 << 16) batch *= 2;
  }
}

/** Find a batch size so that one batch takes at least minSampleNs. */
export function calibrateBatch(variant: Variant, minSampleNs: number): number {
  let batch = 1;
  for (;;) {
    const start = process.hrtime.bigint();
    variant.run(batch);
    const elapsed = Number(process.hrtime.bigint() - start);
    if (elapsed >= minSampleNs || batch >= 1 << 24) return batch;
    batch *= elapsed < minSampleNs / 16 ? 8 : 2;
  }
}

/**
 * Measure variants in one process, interleaved: round after round, each variant in turn with the
 * order rotated, so drift of the machine (frequency, other load, GC) hits all of them alike.
 * Each sample is a batch timed with hrtime and handed to tinybench as an overridden duration.
 */
export async function measureInterleaved(variants: readonly Variant[], options: InterleaveOptions = {}): Promise<InterleavedResult> {
  const rounds = options.rounds ?? 8;
  const samplesPerRound = options.samplesPerRound ?? 40;
  const minSampleNs = options.minSampleNs ?? 50_000;
  const warmupNs = (options.warmupMs ?? 150) * 1e6;
  for (const variant of variants) warmUp(variant, warmupNs);
  const batches = variants.map((v) => calibrateBatch(v, minSampleNs));
  const samples = variants.map(() => [] as number[]);
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
    for (let k = 0; k < variants.length; k++) {
      const index = (k + round) % variants.length;
      const variant = variants[index]!;
      const batch = batches[index]!;
      bench.add(variant.name, () => {
        const start = process.hrtime.bigint();
        variant.run(batch);
        return { overriddenDuration: Number(process.hrtime.bigint() - start) / 1e6 };
      });
    }
    bench.addEventListener("warning", (event) => {
      const reason = (event as unknown as { reason?: string }).reason;
      const task = (event as unknown as { task?: { name: string } }).task;
      if (reason) warnings.add(`${task?.name ?? "bench"}: ${reason}`);
    });
    await bench.run();
    for (const task of bench.tasks) {
      const index = variants.findIndex((v) => v.name === task.name);
      const result = task.result;
      if (result.state === "errored") throw result.error;
      if (!("latency" in result)) continue;
      const batch = batches[index]!;
      for (const ms of result.latency.samples ?? []) samples[index]!.push((ms * 1e6) / batch);
    }
  }

  return {
    variants: variants.map((v, i) => ({ name: v.name, batch: batches[i]!, samplesNs: samples[i]!, summary: summarize(samples[i]!) })),
    warnings: [...warnings],
  };
}
