/**
 * When a timed figure cannot be trusted. Each rule returns the reason a reader sees next to the
 * figure ("noisy — rerun on a quiet machine"), or null when the figure stands.
 */
import type { RunNoise } from "./noise.ts";
import type { Estimate } from "./stats.ts";

/** A ratio near 1 is distinguishable from 1 down to this much; a wider interval says nothing. */
export const RATIO_TOLERANCE = 0.02;
/** An absolute figure whose 95 % interval spans more than ± this share of it is not a measurement. */
export const WIDTH_TOLERANCE = 0.1;

const pct = (share: number) => `${(share * 100).toFixed(1)} %`;

/** The whole run: a calibration loop measured alongside varied more than identical work should. */
export function noiseReason(noise: RunNoise | null): string | null {
  if (noise === null || !noise.noisy) return null;
  return `the machine was noisy: identical calibration work varied by ${pct(noise.calibrationSpread)} during the run (limit ${pct(noise.limit)})`;
}

/**
 * A ratio of a variant to its baseline. `addsWork` says the variant does everything the baseline
 * does and more (an engine against no engine), so a ratio below 1 beyond its interval is a
 * measurement artefact (a load that hit the baseline's samples), not a fact.
 */
export function ratioReason(ratio: Estimate, noise: RunNoise | null, options: { addsWork: boolean }): string | null {
  const run = noiseReason(noise);
  if (run !== null) return run;
  if (options.addsWork && ratio.high < 1) {
    return `says the variant is faster than its baseline (${short(ratio.value)}×, interval ${short(ratio.low)}–${short(ratio.high)}) although it does the baseline's work and more`;
  }
  const halfWidth = (ratio.high - ratio.low) / 2;
  if (halfWidth > Math.max(Math.abs(ratio.value - 1), RATIO_TOLERANCE * ratio.value)) {
    return `its 95 % interval (${short(ratio.low)}–${short(ratio.high)}×) is wider than the effect it measures`;
  }
  return null;
}

/** An absolute timed figure (a median time, a rate). */
export function estimateReason(estimate: Estimate, noise: RunNoise | null): string | null {
  const run = noiseReason(noise);
  if (run !== null) return run;
  const halfWidth = (estimate.high - estimate.low) / 2;
  if (estimate.value > 0 && halfWidth > WIDTH_TOLERANCE * estimate.value) {
    return `its 95 % interval (${short(estimate.low)}–${short(estimate.high)}) spans ± ${pct(halfWidth / estimate.value)} of it`;
  }
  return null;
}

const short = (value: number) => Number(value.toPrecision(4)).toString();
