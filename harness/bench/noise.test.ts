import { describe, expect, it } from "vitest";
import { NOISE_LIMIT, NoiseProbe, noiseOf } from "./noise.ts";
import { VirtualMachine } from "./testing/virtual-machine.ts";

describe("the run's noise level", () => {
  it("is the 10th–90th percentile range of identical work over its median, noisy above the limit", () => {
    expect(noiseOf([100, 100, 100, 100])).toEqual({ calibrationSpread: 0, limit: NOISE_LIMIT, samples: 4, noisy: false });
    const loaded = noiseOf([100, 101, 99, 100, 160, 100, 100, 158]);
    expect(loaded.calibrationSpread).toBeGreaterThan(0.4);
    expect(loaded.noisy).toBe(true);
    expect(noiseOf([100]).calibrationSpread).toBe(0);
  });

  it("is measured between passes by a probe, which sees a load that comes and goes", () => {
    const quietMachine = new VirtualMachine();
    const quiet = new NoiseProbe(quietMachine.clock, 100_000, quietMachine.calibration);
    for (let i = 0; i < 20; i++) quiet.sample();
    expect(quiet.noise().noisy).toBe(false);

    // A load on for every other millisecond of virtual time.
    const busy = new VirtualMachine(({ nowNs }) => (Math.floor(nowNs / 1e6) % 2 === 0 ? 1 : 1.7));
    const probe = new NoiseProbe(busy.clock, 100_000, busy.calibration);
    for (let i = 0; i < 20; i++) {
      probe.sample();
      busy.work("pass", 730_000);
    }
    expect(probe.noise().noisy).toBe(true);
  });
});
