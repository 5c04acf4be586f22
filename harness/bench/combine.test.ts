import { describe, expect, it } from "vitest";
import type { CacheSuite } from "./suites/cache.suite.ts";
import type { OverheadSuite, OverheadVariant } from "./suites/overhead.suite.ts";
import { combineSuiteResults } from "./combine.ts";
import type { Goal } from "./goals.ts";

const estimate = (value: number) => ({ value, low: value, high: value });
const goal = (id: string, engine: string | null): Goal => ({ id, engine, description: "d", limit: 1, measured: 1, interval: null, unit: "×", status: "met" });
const noise = (calibrationSpread: number) => ({ calibrationSpread, limit: 0.05, samples: 10, noisy: calibrationSpread > 0.05 });
const variant = (name: string, engine: string | null): OverheadVariant => ({
  variant: name,
  engine,
  stage: "assembly",
  medianNs: estimate(1),
  madNs: 0,
  p99Ns: 1,
  samples: 1,
  ratioToNoEngine: null,
  addedNs: null,
  ratioToStringify: null,
  unreliable: null,
});
const overhead = (engine: string, spread: number, identical = true): OverheadSuite => ({
  suite: "overhead",
  warnings: [`measured beside ${engine}`],
  goals: [goal("inheriting-vs-none", null), goal(`overhead/${engine}`, engine)],
  noise: noise(spread),
  durationMs: 10,
  messagesPerRequest: 500,
  stringifyFloorNs: 5,
  requestsByteIdentical: identical,
  variants: [variant("no-engine", null), variant("inheriting", null), variant(`engine:${engine}`, engine)],
});
const cache = (engine: string): CacheSuite => ({
  suite: "cache",
  scenarios: ["provider-faults"],
  engines: [{ engine, turns: 4, hitRatio: 0.5, ceilingHitRatio: 0.9, prefixBreaksPer100Turns: 1, needlessSelectionChanges: 0, perTurnHitRatio: [0.5] }],
  warnings: [],
  goals: [goal(`CACHE-2/${engine}/needless-selection-changes`, engine)],
  noise: null,
  durationMs: 5,
});

describe("combining one suite's per-engine results (one player per engine)", () => {
  it("overhead: the harness's rows and goals of the first player, every engine's own, the noisiest run's noise", () => {
    const combined = combineSuiteResults([overhead("a", 0.01), overhead("b", 0.09, false)]) as OverheadSuite;
    expect(combined.variants.map((v) => v.variant)).toEqual(["no-engine", "inheriting", "engine:a", "engine:b"]);
    expect(combined.goals.map((g) => g.id)).toEqual(["inheriting-vs-none", "overhead/a", "overhead/b"]);
    expect(combined.requestsByteIdentical).toBe(false);
    expect(combined.noise).toEqual(noise(0.09));
    expect(combined.warnings).toEqual(["measured beside a", "measured beside b"]);
    expect(combined.durationMs).toBe(20);
  });

  it("per-engine suites: engines and their goals side by side", () => {
    const combined = combineSuiteResults([cache("a"), cache("b")]) as CacheSuite;
    expect(combined.engines.map((e) => e.engine)).toEqual(["a", "b"]);
    expect(combined.goals.map((g) => g.id)).toEqual(["CACHE-2/a/needless-selection-changes", "CACHE-2/b/needless-selection-changes"]);
    expect(combined.noise).toBeNull();
  });

  it("refuses parts of different suites", () => {
    expect(() => combineSuiteResults([cache("a"), overhead("b", 0)])).toThrow(/different suites/);
  });
});
