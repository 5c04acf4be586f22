/**
 * How steady the machine was while a suite measured: a fixed calibration loop, timed alongside
 * the figures, takes the same work every time, so whatever its times spread by is the machine
 * (other processes, frequency changes), not the code under test.
 */
import { median, quantile } from "./stats.ts";

export interface RunNoise {
  /** (90th − 10th percentile) ÷ median of the calibration loop's times (one per round or probe). */
  calibrationSpread: number;
  /** The spread above which the run counts as noisy. */
  limit: number;
  /** Calibration times behind the spread. */
  samples: number;
  noisy: boolean;
}

/** Above this spread of identical work, timed figures of the run are not trusted. */
export const NOISE_LIMIT = 0.05;

let sink = 1;

/** Allocation-free integer work (xorshift steps): nothing for the JIT to remove or the GC to collect. */
export function calibrationWork(operations: number): void {
  let x = sink | 1;
  for (let i = 0; i < operations * 256; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
  }
  sink = x;
}

export function noiseOf(times: readonly number[], limit = NOISE_LIMIT): RunNoise {
  const middle = median(times);
  const calibrationSpread = times.length < 2 || !(middle > 0) ? 0 : (quantile(times, 0.9) - quantile(times, 0.1)) / middle;
  return { calibrationSpread, limit, samples: times.length, noisy: calibrationSpread > limit };
}

/** A monotonic clock in nanoseconds; tests pass a virtual one. */
export type Clock = () => number;
export const hrClock: Clock = () => Number(process.hrtime.bigint());

/**
 * The calibration loop for suites that time passes one by one instead of interleaving variants:
 * `sample()` between passes times one fixed chunk of calibration work.
 */
export class NoiseProbe {
  private readonly times: number[] = [];
  private readonly operations: number;

  constructor(
    private readonly clock: Clock = hrClock,
    targetNs = 300_000,
    private readonly work: (operations: number) => void = calibrationWork,
  ) {
    let operations = 1;
    while (operations < 1 << 20) {
      const started = clock();
      work(operations);
      if (clock() - started >= targetNs) break;
      operations *= 2;
    }
    this.operations = operations;
  }

  sample(): void {
    const started = this.clock();
    this.work(this.operations);
    this.times.push(this.clock() - started);
  }

  noise(limit = NOISE_LIMIT): RunNoise {
    return noiseOf(this.times, limit);
  }
}
