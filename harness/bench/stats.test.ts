import { describe, expect, it } from "vitest";
import { seededRandom } from "../util/random.ts";
import { fittedExponent, mad, median, quantile, ratioOfMedians, summarize } from "./stats.ts";

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
    expect(r.ratio).toBeCloseTo(23 / 12);
    expect(r.ciLow).toBeLessThanOrEqual(r.ratio);
    expect(r.ciHigh).toBeGreaterThanOrEqual(r.ratio);
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
      expect(fast.ciLow).toBeCloseTo(quantile(ratios, 0.025), 10);
      expect(fast.ciHigh).toBeCloseTo(quantile(ratios, 0.975), 10);
    }
  });
});
