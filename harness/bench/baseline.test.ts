import { mkdtempSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findRegressions, loadBaseline, saveBaseline, type BaselineFile } from "./baseline.ts";

const base: BaselineFile = {
  schemaVersion: 1,
  machine: "test",
  figures: {
    "overhead/inheriting": { value: 100, relativeUncertainty: 0.02, higherIsBetter: false },
    "throughput/compressor/10000": { value: 50_000, relativeUncertainty: 0.3, higherIsBetter: true },
  },
};

describe("benchmark baselines", () => {
  it("round-trips through a file named after the baseline", () => {
    const dir = mkdtempSync(join(tmpdir(), "ctxbench-baseline-"));
    const path = saveBaseline(dir, "main", base);
    expect(path).toBe(join(dir, ".ctxbench", "baselines", "main.json"));
    expect(loadBaseline(dir, "main")).toEqual(base);
  });

  it("flags a figure worse by more than the 10 % noise floor, and not one within it", () => {
    const worse = findRegressions(base, { "overhead/inheriting": { value: 115, relativeUncertainty: 0.02, higherIsBetter: false } });
    expect(worse).toHaveLength(1);
    expect(worse[0]!.worseBy).toBeCloseTo(1.15);
    expect(findRegressions(base, { "overhead/inheriting": { value: 108, relativeUncertainty: 0.02, higherIsBetter: false } })).toEqual([]);
  });

  it("widens the allowance to the figures' own uncertainty, and knows which direction is better", () => {
    const slower = { value: 40_000, relativeUncertainty: 0.1, higherIsBetter: true };
    expect(findRegressions(base, { "throughput/compressor/10000": slower })).toEqual([]);
    const muchSlower = { value: 30_000, relativeUncertainty: 0.1, higherIsBetter: true };
    expect(findRegressions(base, { "throughput/compressor/10000": muchSlower })).toHaveLength(1);
    const faster = { value: 90_000, relativeUncertainty: 0.1, higherIsBetter: true };
    expect(findRegressions(base, { "throughput/compressor/10000": faster })).toEqual([]);
  });

  it("refuses unsafe names, missing baselines and foreign files with a usage error", () => {
    const dir = mkdtempSync(join(tmpdir(), "ctxbench-baseline-"));
    expect(() => loadBaseline(dir, "../etc")).toThrow(/may use only/);
    expect(() => loadBaseline(dir, "absent")).toThrow(/no baseline named "absent"/);
    mkdirSync(join(dir, ".ctxbench", "baselines"), { recursive: true });
    writeFileSync(join(dir, ".ctxbench", "baselines", "junk.json"), "{not json");
    expect(() => loadBaseline(dir, "junk")).toThrow(/not valid JSON/);
  });
});
