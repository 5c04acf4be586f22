/** Robust statistics for benchmark samples: order statistics, spread, bootstrap intervals, scaling fits. */
import { seededRandom } from "../util/random.ts";

export function sorted(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

/** The q-quantile (0..1) by linear interpolation between order statistics. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const s = sorted(values);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  const a = s[lo]!;
  const b = s[hi]!;
  return a + (b - a) * (pos - lo);
}

export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/** Median absolute deviation (unscaled). */
export function mad(values: readonly number[]): number {
  const m = median(values);
  return median(values.map((v) => Math.abs(v - m)));
}

export function mean(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

export interface SampleSummary {
  samples: number;
  median: number;
  mad: number;
  mean: number;
  p99: number;
  min: number;
  max: number;
}

export function summarize(values: readonly number[]): SampleSummary {
  const s = sorted(values);
  return {
    samples: s.length,
    median: median(s),
    mad: mad(s),
    mean: mean(s),
    p99: quantile(s, 0.99),
    min: s[0] ?? Number.NaN,
    max: s[s.length - 1] ?? Number.NaN,
  };
}

/** A figure with its 95 % interval. */
export interface Estimate {
  value: number;
  low: number;
  high: number;
}

/** Half the interval's width over the value: the uncertainty a baseline gate allows for. */
export const relativeHalfWidth = (estimate: Estimate): number => (estimate.value > 0 ? (estimate.high - estimate.low) / 2 / estimate.value : 0);

/** Samples of one variant grouped by the round they were taken in (rounds interleave the variants). */
export interface RoundedSamples {
  /** Every sample, in the order taken. */
  samples: readonly number[];
  /** The same samples, one array per round. */
  perRound: readonly (readonly number[])[];
}

export interface Comparison {
  /** median(variant) ÷ median(baseline). */
  ratio: Estimate;
  /** median(variant) − median(baseline), in the samples' unit. */
  difference: Estimate;
}

const RESAMPLES = 2000;

/** The median with a percentile-bootstrap 95 % interval (seeded, so the same samples give the same interval). */
export function medianWithInterval(values: readonly number[], resamples = RESAMPLES, seed = 1): Estimate {
  const value = median(values);
  if (values.length < 2) return { value, low: value, high: value };
  const random = seededRandom(seed);
  const scratch = new Float64Array(values.length);
  const medians: number[] = [];
  for (let i = 0; i < resamples; i++) medians.push(resampledMedian(values, scratch, random));
  return { value, low: quantile(medians, 0.025), high: quantile(medians, 0.975) };
}

/**
 * The ratio of medians a/b with a percentile-bootstrap 95 % interval over the pooled samples.
 * Samples of a and b were taken interleaved in one process, so their ratio is the number that
 * survives a noisy machine; `compareInterleaved` adds what the rounds say about drift.
 */
export function ratioOfMedians(a: readonly number[], b: readonly number[], resamples = RESAMPLES, seed = 1): Estimate {
  return pooledComparison(a, b, resamples, seed).ratio;
}

function pooledComparison(a: readonly number[], b: readonly number[], resamples: number, seed: number): Comparison {
  const ma = median(a);
  const mb = median(b);
  const point = { ratio: ma / mb, difference: ma - mb };
  if (a.length < 2 || b.length < 2) return exact(point.ratio, point.difference);
  const random = seededRandom(seed);
  const scratchA = new Float64Array(a.length);
  const scratchB = new Float64Array(b.length);
  const ratios: number[] = [];
  const differences: number[] = [];
  for (let i = 0; i < resamples; i++) {
    const ra = resampledMedian(a, scratchA, random);
    const rb = resampledMedian(b, scratchB, random);
    ratios.push(ra / rb);
    differences.push(ra - rb);
  }
  return {
    ratio: { value: point.ratio, low: quantile(ratios, 0.025), high: quantile(ratios, 0.975) },
    difference: { value: point.difference, low: quantile(differences, 0.025), high: quantile(differences, 0.975) },
  };
}

const exact = (ratio: number, difference: number): Comparison => ({
  ratio: { value: ratio, low: ratio, high: ratio },
  difference: { value: difference, low: difference, high: difference },
});

/**
 * A variant against a baseline measured in the same rounds. The pooled bootstrap alone treats
 * every sample as independent, but a load that comes and goes hits whole blocks of one variant:
 * it leaves a tight interval around a wrong ratio. So the interval is the wider of the pooled one
 * and a bootstrap over the per-round ratios (and differences), which spread when the rounds disagree.
 */
export function compareInterleaved(variant: RoundedSamples, baseline: RoundedSamples, resamples = RESAMPLES, seed = 1): Comparison {
  const pooled = pooledComparison(variant.samples, baseline.samples, resamples, seed);
  const rounds = Math.min(variant.perRound.length, baseline.perRound.length);
  const roundRatios: number[] = [];
  const roundDifferences: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const v = median(variant.perRound[round]!);
    const b = median(baseline.perRound[round]!);
    if (!Number.isFinite(v) || !Number.isFinite(b)) continue;
    roundRatios.push(v / b);
    roundDifferences.push(v - b);
  }
  const widen = (estimate: Estimate, perRound: number[]): Estimate => {
    if (perRound.length < 2) return estimate;
    const spread = medianWithInterval(perRound, resamples, seed + 1);
    return { value: estimate.value, low: Math.min(estimate.low, spread.low), high: Math.max(estimate.high, spread.high) };
  };
  return { ratio: widen(pooled.ratio, roundRatios), difference: widen(pooled.difference, roundDifferences) };
}

function resampledMedian(values: readonly number[], scratch: Float64Array, random: () => number): number {
  for (let i = 0; i < values.length; i++) scratch[i] = values[Math.floor(random() * values.length)]!;
  return selectMedian(scratch);
}

/** Median by quickselect, in place (linear time: the bootstrap takes thousands of them). */
function selectMedian(values: Float64Array): number {
  const n = values.length;
  const upper = selectKth(values, Math.floor(n / 2));
  if (n % 2 === 1) return upper;
  let lower = -Infinity;
  for (let i = 0; i < Math.floor(n / 2); i++) if (values[i]! > lower) lower = values[i]!;
  return (lower + upper) / 2;
}

/** Hoare's selection: after it, values[k] is the k-th smallest and everything before it is no larger. */
function selectKth(values: Float64Array, k: number): number {
  let lo = 0;
  let hi = values.length - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >>> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const t = values[i]!;
        values[i] = values[j]!;
        values[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return values[k]!;
}

/**
 * The scaling exponent fitted on the medians of each size's samples, with a bootstrap 95 %
 * interval: each resample redraws every size's samples and refits.
 */
export function fittedExponentWithInterval(xs: readonly number[], samplesPerX: readonly (readonly number[])[], resamples = RESAMPLES, seed = 1): Estimate {
  const value = fittedExponent(xs, samplesPerX.map((samples) => median(samples)));
  if (samplesPerX.some((samples) => samples.length < 2)) return { value, low: value, high: value };
  const random = seededRandom(seed);
  const scratch = samplesPerX.map((samples) => new Float64Array(samples.length));
  const fits: number[] = [];
  for (let i = 0; i < resamples; i++) fits.push(fittedExponent(xs, samplesPerX.map((samples, k) => resampledMedian(samples, scratch[k]!, random))));
  return { value, low: quantile(fits, 0.025), high: quantile(fits, 0.975) };
}

/** Least-squares slope of log(y) on log(x): the scaling exponent (1 = linear). */
export function fittedExponent(xs: readonly number[], ys: readonly number[]): number {
  const n = Math.min(xs.length, ys.length);
  if (n < 2) return Number.NaN;
  const lx = xs.slice(0, n).map(Math.log);
  const ly = ys.slice(0, n).map(Math.log);
  const mx = mean(lx);
  const my = mean(ly);
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (lx[i]! - mx) * (ly[i]! - my);
    den += (lx[i]! - mx) ** 2;
  }
  return num / den;
}
