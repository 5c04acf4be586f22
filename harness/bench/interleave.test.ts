import { describe, expect, it } from "vitest";
import { calibrateBatch, measureInterleaved } from "./interleave.ts";

function busyWork(units: number): number {
  let x = 0;
  for (let i = 0; i < units; i++) x = (x * 31 + i) | 0;
  return x;
}

describe("interleaved measurement", () => {
  it("finishes on a variant the JIT reduces to nothing, with the samples asked for", async () => {
    const result = await measureInterleaved([{ name: "empty", run: () => {} }], { rounds: 2, samplesPerRound: 4, minSampleNs: 1_000, warmupMs: 1 });
    expect(result.variants[0]!.samplesNs).toHaveLength(8);
  });

  it("batches a fast operation until one sample outlasts the minimum", () => {
    let calls = 0;
    const batch = calibrateBatch({ name: "tiny", run: (n) => void (calls += n) }, 20_000);
    expect(batch).toBeGreaterThan(1);
    expect(calls).toBeGreaterThanOrEqual(batch);
  });

  it("collects samples for every variant in every round and ranks a 20x heavier one slower", async () => {
    let sink = 0;
    const result = await measureInterleaved(
      [
        { name: "light", run: (n) => { for (let i = 0; i < n; i++) sink ^= busyWork(10); } },
        { name: "heavy", run: (n) => { for (let i = 0; i < n; i++) sink ^= busyWork(200); } },
      ],
      { rounds: 3, samplesPerRound: 5, minSampleNs: 20_000, warmupMs: 5 },
    );
    expect(sink).toBeTypeOf("number");
    const [light, heavy] = result.variants;
    expect(light!.samplesNs.length).toBe(15);
    expect(heavy!.samplesNs.length).toBe(15);
    expect(heavy!.summary.median).toBeGreaterThan(light!.summary.median * 3);
  });
});
