/**
 * A machine with a virtual clock, for tests of the statistics: work advances the clock by its
 * cost times the load at that moment, so a load can be played deterministically — including the
 * worst case, a load that comes exactly while one variant is being sampled.
 */
import type { Variant } from "../interleave.ts";
import { seededRandom } from "../../util/random.ts";

export type Load = (context: { variant: string; nowNs: number }) => number;

export class VirtualMachine {
  private nowNs = 0;
  private readonly jitter: () => number;

  /** `load` is the slowdown factor (1 = quiet); `jitterShare` a seeded ± spread of every operation. */
  constructor(
    private readonly load: Load = () => 1,
    jitterShare = 0.01,
    seed = 1,
  ) {
    const random = seededRandom(seed);
    this.jitter = () => 1 + (random() * 2 - 1) * jitterShare;
  }

  readonly clock = (): number => this.nowNs;

  /** Spend `ns` of work as `variant` would under the current load. */
  work(variant: string, ns: number): void {
    this.nowNs += ns * this.jitter() * this.load({ variant, nowNs: this.nowNs });
  }

  variant(name: string, nsPerOperation: number): Variant {
    return { name, run: (operations) => this.work(name, operations * nsPerOperation) };
  }

  /** The calibration loop's work on this machine: a fixed cost per operation. */
  readonly calibration = (operations: number): void => this.work("(calibration)", operations * 500);
}
