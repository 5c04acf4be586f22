import { describe, expect, it } from "vitest";
import type { OverheadSuite, StoreSuite } from "../../reports/result.ts";
import { figuresOf } from "./figures.ts";

const base = { warnings: [], goals: [], durationMs: 1 };

describe("baseline figures of a suite", () => {
  it("keeps overhead ratios to no engine, lower is better, with the interval's half-width as uncertainty", () => {
    const suite: OverheadSuite = {
      ...base,
      suite: "overhead",
      messagesPerRequest: 500,
      stringifyFloorNs: 200_000,
      requestsByteIdentical: true,
      variants: [
        { variant: "no-engine", engine: null, stage: "assembly", medianNs: 80_000, madNs: 1, p99Ns: 1, samples: 10, ratioToNoEngine: null, ratioToStringify: 0.4 },
        { variant: "inheriting", engine: "inheriting", stage: "assembly", medianNs: 80_000, madNs: 1, p99Ns: 1, samples: 10, ratioToNoEngine: { ratio: 1, ciLow: 0.98, ciHigh: 1.02 }, ratioToStringify: 0.4 },
      ],
    };
    const figures = figuresOf(suite);
    expect(Object.keys(figures)).toEqual(["overhead/assembly/inheriting"]);
    expect(figures["overhead/assembly/inheriting"]).toEqual({ value: 1, relativeUncertainty: expect.closeTo(0.02, 6), higherIsBetter: false });
  });

  it("knows that more appends and restores are better and a longer write lock is worse", () => {
    const suite: StoreSuite = { ...base, suite: "store", appendsPerSecond: 90_000, restoresPerSecond: 1_600, legacyRows: 10, opensToConverge: 2, longestWriteLockMs: 20 };
    const figures = figuresOf(suite);
    expect(figures["store/appends-per-second"]!.higherIsBetter).toBe(true);
    expect(figures["store/restores-per-second"]!.higherIsBetter).toBe(true);
    expect(figures["store/longest-write-lock-ms"]!.higherIsBetter).toBe(false);
  });
});
