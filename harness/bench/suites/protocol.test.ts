import { describe, expect, it } from "vitest";
import { runProtocolBench } from "./protocol.ts";

const tiny = { rounds: 2, samplesPerRound: 3, minSampleNs: 2_000, warmupMs: 1 };

describe("protocol suite (a real Python engine side)", () => {
  it("times every figure, and the inheriting engine's assemblies send its engine side nothing", async () => {
    const result = await runProtocolBench({ messages: 40, samples: 2, measure: tiny });
    expect(result.requestsByteIdentical).toBe(true);
    expect(result.inheritingAssemblies).toBeGreaterThan(0);
    expect(result.messagesDuringAssembly).toBe(0);
    expect(result.noopOverFloor).toBeCloseTo(result.noopRoundTripUs.value / result.pipeFloorUs.value, 9);
    for (const figure of [result.noopRoundTripUs, result.pipeFloorUs, result.selectRoundTripMs, result.selectColdRoundTripMs, result.inheritingAssemblyRatio]) {
      expect(figure.value).toBeGreaterThan(0);
      expect(figure.low).toBeLessThanOrEqual(figure.value);
      expect(figure.high).toBeGreaterThanOrEqual(figure.value);
    }
    expect(result.goals.map((goal) => goal.id)).toEqual(["protocol-noop-round-trip", "protocol-select-500", "protocol-inheriting-assembly"]);
  }, 60_000);
});
