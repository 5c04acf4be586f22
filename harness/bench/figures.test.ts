import { describe, expect, it } from "vitest";
import type { OverheadSuite } from "./suites/overhead.suite.ts";
import type { StoreSuite } from "./suites/store.suite.ts";
import type { ThroughputSuite } from "./suites/throughput.suite.ts";
import { figuresOf } from "./figures.ts";

const at = (value: number) => ({ value, low: value, high: value });
const base = { warnings: [], goals: [], noise: null, durationMs: 1 };

describe("baseline figures of a suite", () => {
  it("keeps overhead ratios to no engine, lower is better, with the interval's half-width as uncertainty", () => {
    const suite: OverheadSuite = {
      ...base,
      suite: "overhead",
      messagesPerRequest: 500,
      stringifyFloorNs: 200_000,
      requestsByteIdentical: true,
      variants: [
        { variant: "no-engine", engine: null, stage: "assembly", medianNs: at(80_000), madNs: 1, p99Ns: 1, samples: 10, ratioToNoEngine: null, addedNs: null, ratioToStringify: 0.4, unreliable: null },
        { variant: "inheriting", engine: null, stage: "assembly", medianNs: at(80_000), madNs: 1, p99Ns: 1, samples: 10, ratioToNoEngine: { value: 1, low: 0.98, high: 1.02 }, addedNs: at(0), ratioToStringify: 0.4, unreliable: null },
      ],
    };
    const figures = figuresOf(suite);
    expect(Object.keys(figures)).toEqual(["overhead/assembly/inheriting"]);
    expect(figures["overhead/assembly/inheriting"]).toEqual({ value: 1, relativeUncertainty: expect.closeTo(0.02, 6), higherIsBetter: false });
  });

  it("knows that more appends and restores are better and a longer write lock is worse", () => {
    const suite: StoreSuite = { ...base, suite: "store", appendsPerSecond: { value: 90_000, low: 85_500, high: 94_500 }, restoresPerSecond: at(1_600), legacyRows: 10, opensToConverge: 2, longestWriteLockMs: 20 };
    const figures = figuresOf(suite);
    expect(figures["store/appends-per-second"]).toEqual({ value: 90_000, relativeUncertainty: expect.closeTo(0.05, 6), higherIsBetter: true });
    expect(figures["store/restores-per-second"]!.higherIsBetter).toBe(true);
    expect(figures["store/longest-write-lock-ms"]!.higherIsBetter).toBe(false);
  });

  it("gates on the host's share of a pass, which is worse when it grows", () => {
    const suite: ThroughputSuite = { ...base, suite: "throughput", engines: [], hostShare: [{ messages: 10_000, medianMs: { value: 4, low: 3.8, high: 4.2 }, unreliable: null }] };
    expect(figuresOf(suite)["throughput/host-share/10000"]).toEqual({ value: 4, relativeUncertainty: expect.closeTo(0.05, 6), higherIsBetter: false });
  });
});
