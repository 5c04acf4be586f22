import { describe, expect, it } from "vitest";
import { noiseOf } from "./noise.ts";
import { estimateReason, noiseReason, ratioReason } from "./reliability.ts";

const quiet = noiseOf([100, 100.5, 99.8, 100.2]);
const noisy = noiseOf([100, 140, 100, 180]);
const at = (value: number, low: number, high: number) => ({ value, low, high });

describe("when a timed figure cannot be trusted", () => {
  it("distrusts every figure of a noisy run, naming the calibration spread", () => {
    expect(noiseReason(quiet)).toBeNull();
    expect(noiseReason(null)).toBeNull();
    expect(noiseReason(noisy)).toMatch(/^the machine was noisy: identical calibration work varied by \d+\.\d % during the run \(limit 5\.0 %\)$/);
    expect(ratioReason(at(2.1, 2.09, 2.11), noisy, { addsWork: true })).toBe(noiseReason(noisy));
    expect(estimateReason(at(10, 9.9, 10.1), noisy)).toBe(noiseReason(noisy));
  });

  it("distrusts a variant that does more work than its baseline yet measures faster beyond its interval", () => {
    expect(ratioReason(at(0.631, 0.62, 0.64), quiet, { addsWork: true })).toMatch(/faster than its baseline/);
    expect(ratioReason(at(0.631, 0.62, 0.64), quiet, { addsWork: false })).toBeNull();
    expect(ratioReason(at(0.998, 0.99, 1.004), quiet, { addsWork: true })).toBeNull();
  });

  it("distrusts an interval wider than the effect it measures, beyond a 2 % tolerance", () => {
    expect(ratioReason(at(1.05, 0.9, 1.25), quiet, { addsWork: true })).toMatch(/wider than the effect/);
    expect(ratioReason(at(1.003, 0.999, 1.009), quiet, { addsWork: true })).toBeNull();
    expect(ratioReason(at(41081, 35968, 45337), quiet, { addsWork: true })).toBeNull();
    expect(estimateReason(at(10, 7, 14), quiet)).toMatch(/spans ± 35\.0 % of it/);
    expect(estimateReason(at(10, 9.5, 10.6), quiet)).toBeNull();
  });
});
