import { describe, expect, it } from "vitest";
import { seededRandom } from "../util/random.ts";
import { compareInterleaved, fittedExponent, fittedExponentWithInterval, mad, median, medianWithInterval, quantile, ratioOfMedians, summarize } from "./stats.ts";

describe("benchmark statistics", () => {
  it("computes order statistics by interpolation", () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([1, 2, 3, 4])).toBe(2.5);
    expect(quantile([0, 10], 0.99)).toBeCloseTo(9.9);
    expect(Number.isNaN(median([]))).toBe(true);
  });

  it("measures spread with the median absolute deviation, which ignores one outlier", () => {
    expect(mad([1, 2, 3, 4, 1000])).toBe(1);
    const s = summarize([3, 1, 2]);
    expect(s).toMatchObject({ samples: 3, median: 2, min: 1, max: 3, mean: 2 });
  });

  it("brackets a ratio of medians with a bootstrap interval", () => {
    const a = Array.from({ length: 200 }, (_, i) => 20 + (i % 7));
    const b = Array.from({ length: 200 }, (_, i) => 10 + (i % 5));
    const r = ratioOfMedians(a, b);
    expect(r.value).toBeCloseTo(23 / 12);
    expect(r.low).toBeLessThanOrEqual(r.value);
    expect(r.high).toBeGreaterThanOrEqual(r.value);
    expect(ratioOfMedians(a, b)).toEqual(r);
  });

  it("fits the scaling exponent on a log-log scale", () => {
    const xs = [1000, 10000, 100000];
    expect(fittedExponent(xs, xs.map((x) => 3 * x))).toBeCloseTo(1);
    expect(fittedExponent(xs, xs.map((x) => x * x))).toBeCloseTo(2);
  });
});

describe("bootstrap medians", () => {
  it("equal a sort-based bootstrap drawing the same random stream, on odd and even counts with duplicates", () => {
    const random = seededRandom(3);
    for (const n of [1, 2, 3, 10, 101]) {
      const a = Array.from({ length: n }, () => Math.floor(random() * 20));
      const b = Array.from({ length: n + 1 }, () => 1 + Math.floor(random() * 20));
      const reference = seededRandom(5);
      const draw = (values: number[]) => median(values.map(() => values[Math.floor(reference() * values.length)]!));
      const ratios = Array.from({ length: 50 }, () => draw(a) / draw(b));
      const fast = ratioOfMedians(a, b, 50, 5);
      if (n < 2) continue;
      expect(fast.low).toBeCloseTo(quantile(ratios, 0.025), 10);
      expect(fast.high).toBeCloseTo(quantile(ratios, 0.975), 10);
    }
  });
});

describe("intervals of timed figures", () => {
  it("brackets a median and is exact for a single sample", () => {
    const values = Array.from({ length: 50 }, (_, i) => 100 + (i % 10));
    const m = medianWithInterval(values);
    expect(m.value).toBe(104.5);
    expect(m.low).toBeLessThanOrEqual(m.value);
    expect(m.high).toBeGreaterThanOrEqual(m.value);
    expect(medianWithInterval([7])).toEqual({ value: 7, low: 7, high: 7 });
  });

  it("widens a comparison when the rounds disagree, though the pooled samples look tight", () => {
    // Round by round the variant is 1.0× or 1.4× its baseline: pooled, the samples hide it.
    const baseline = Array.from({ length: 8 }, () => Array.from({ length: 30 }, (_, i) => 100 + (i % 3)));
    const variant = baseline.map((round, r) => round.map((v) => v * (r % 2 === 0 ? 1 : 1.4)));
    const pooledRatio = ratioOfMedians(variant.flat(), baseline.flat());
    const { ratio, difference } = compareInterleaved({ samples: variant.flat(), perRound: variant }, { samples: baseline.flat(), perRound: baseline });
    expect(ratio.value).toBe(pooledRatio.value);
    expect(ratio.high - ratio.low).toBeGreaterThan(pooledRatio.high - pooledRatio.low);
    expect(ratio.low).toBeLessThanOrEqual(1.01);
    expect(ratio.high).toBeGreaterThanOrEqual(1.39);
    expect(difference.low).toBeLessThanOrEqual(1);
    expect(difference.high).toBeGreaterThanOrEqual(39);
  });

  it("gives the scaling exponent an interval from the passes at each size", () => {
    const xs = [1000, 10000, 100000];
    const samples = xs.map((x) => [0.98, 1, 1.03, 0.99, 1.01].map((f) => x * f));
    const fit = fittedExponentWithInterval(xs, samples);
    expect(fit.value).toBeCloseTo(1, 5);
    expect(fit.low).toBeLessThan(1);
    expect(fit.high).toBeGreaterThan(1);
    expect(fit.high - fit.low).toBeLessThan(0.05);
    expect(fittedExponentWithInterval(xs, xs.map((x) => [x]))).toEqual({ value: expect.closeTo(1, 6), low: expect.closeTo(1, 6), high: expect.closeTo(1, 6) });
  });
});
