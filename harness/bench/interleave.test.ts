import { describe, expect, it } from "vitest";
import { calibrateBatch, measureInterleaved } from "./interleave.ts";
import { seededRandom } from "../util/random.ts";
import { compareInterleaved, ratioOfMedians } from "./stats.ts";
import { VirtualMachine } from "./testing/virtual-machine.ts";

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

  // On a clock of its own: on the real one a loaded machine can make a single call outlast the minimum (CI saw batch 1).
  it("batches a fast operation until one sample outlasts the minimum", () => {
    let now = 0;
    let calls = 0;
    const batch = calibrateBatch({ name: "tiny", run: (n) => { calls += n; now += n * 10; } }, 20_000, () => now);
    // 10 ns a call: ×8 while a sample is under 1/16 of the minimum (1, 8, 64, 512), then ×2 (1024, 2048).
    expect(batch).toBe(2048);
    expect(batch * 10).toBeGreaterThanOrEqual(20_000);
    expect(calls).toBe(1 + 8 + 64 + 512 + 1024 + 2048);
  });

  // On the real clock only the sample counts are asserted: which variant is slower is a timing, and a
  // loaded CI machine can invert it. Ranking by cost is proven on the virtual clock below (ratio ≈ 2).
  it("collects samples for every variant in every round on the real clock", async () => {
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
    expect([...light!.samplesNs, ...heavy!.samplesNs].every((ns) => ns > 0)).toBe(true);
  });
});

describe("interleaved measurement on a machine with a load (virtual clock)", () => {
  const options = (machine: VirtualMachine) => ({ rounds: 8, samplesPerRound: 20, minSampleNs: 20_000, warmupMs: 0.1, clock: machine.clock, calibration: machine.calibration });

  it("keeps samples per round and measures a calibration loop beside the variants", async () => {
    const machine = new VirtualMachine();
    const result = await measureInterleaved([machine.variant("a", 100), machine.variant("b", 200)], options(machine));
    expect(result.variants.map((v) => v.name)).toEqual(["a", "b"]);
    expect(result.variants[0]!.perRound).toHaveLength(8);
    expect(result.variants[0]!.perRound.flat()).toEqual(result.variants[0]!.samplesNs);
    expect(result.calibration.perRound).toHaveLength(8);
    expect(result.noise).toMatchObject({ samples: 8, noisy: false });
    const ratio = compareInterleaved(
      { samples: result.variants[1]!.samplesNs, perRound: result.variants[1]!.perRound },
      { samples: result.variants[0]!.samplesNs, perRound: result.variants[0]!.perRound },
    ).ratio;
    expect(ratio.value).toBeCloseTo(2, 1);
    expect(ratio.low).toBeLessThanOrEqual(ratio.value);
    expect(ratio.high).toBeGreaterThanOrEqual(ratio.value);
  });

  it("reports a load that comes and goes as a noisy run, with a wide interval instead of a tight wrong one", async () => {
    const random = seededRandom(11);
    const loadedWindows = new Map<number, number>();
    // Every millisecond of virtual time the load is on (2.5× slower) or off, at random.
    const machine = new VirtualMachine(({ nowNs }) => {
      const window = Math.floor(nowNs / 1e6);
      if (!loadedWindows.has(window)) loadedWindows.set(window, random() < 0.5 ? 2.5 : 1);
      return loadedWindows.get(window)!;
    });
    const result = await measureInterleaved([machine.variant("no-engine", 1000), machine.variant("inheriting", 1000)], options(machine));
    expect(result.noise.noisy).toBe(true);
    const [base, variant] = result.variants;
    const pooled = ratioOfMedians(variant!.samplesNs, base!.samplesNs);
    const rounds = compareInterleaved({ samples: variant!.samplesNs, perRound: variant!.perRound }, { samples: base!.samplesNs, perRound: base!.perRound }).ratio;
    expect(rounds.high - rounds.low).toBeGreaterThan(pooled.high - pooled.low);
  });
});
