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

export interface RatioEstimate {
  ratio: number;
  ciLow: number;
  ciHigh: number;
}

/**
 * The ratio of medians a/b with a percentile-bootstrap 95 % interval. Samples of a and b were
 * taken interleaved in one process, so their ratio is the number that survives a noisy machine.
 */
export function ratioOfMedians(a: readonly number[], b: readonly number[], resamples = 2000, seed = 1): RatioEstimate {
  const ratio = median(a) / median(b);
  if (a.length < 2 || b.length < 2) return { ratio, ciLow: ratio, ciHigh: ratio };
  const random = seededRandom(seed);
  const scratchA = new Float64Array(a.length);
  const scratchB = new Float64Array(b.length);
  const resampledMedian = (values: readonly number[], scratch: Float64Array) => {
    for (let i = 0; i < values.length; i++) scratch[i] = values[Math.floor(random() * values.length)]!;
    return selectMedian(scratch);
  };
  const ratios: number[] = [];
  for (let i = 0; i < resamples; i++) ratios.push(resampledMedian(a, scratchA) / resampledMedian(b, scratchB));
  return { ratio, ciLow: quantile(ratios, 0.025), ciHigh: quantile(ratios, 0.975) };
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
