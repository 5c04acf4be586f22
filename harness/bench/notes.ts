/** Notes and marks the suites' tables share: the run's noise, figures that cannot be trusted, warnings. */
import { percent } from "../util/format.ts";
import { RERUN_ADVICE } from "./goals.ts";
import type { RunNoise } from "./noise.ts";

/** Appended to a figure that cannot be trusted; the reason is a note under its table. */
export const NOISY_MARK = "(noisy)";

export function noiseNote(noise: RunNoise | null): string[] {
  if (noise === null) return [];
  const spread = percent(noise.calibrationSpread);
  return [
    noise.noisy
      ? `Noise: identical calibration work varied by ${spread} during this suite (limit ${percent(noise.limit)}): ${RERUN_ADVICE}.`
      : `Noise: identical calibration work measured alongside varied by ${spread} (limit ${percent(noise.limit)}).`,
  ];
}

export const flagged = (text: string, unreliable: string | null): string => (unreliable === null ? text : `${text} ${NOISY_MARK}`);

export function unreliableNotes(rows: { label: string; unreliable: string | null }[]): string[] {
  const reasons = new Map<string, string[]>();
  for (const row of rows) if (row.unreliable !== null) reasons.set(row.unreliable, [...(reasons.get(row.unreliable) ?? []), row.label]);
  return [...reasons].map(([reason, labels]) => `${NOISY_MARK} ${labels.join(", ")}: ${reason} — ${RERUN_ADVICE}.`);
}

/** `warning: …` notes of a suite's warnings, for the end of its table. */
export const warningNotes = (suite: { warnings: readonly string[] }): string[] => suite.warnings.map((warning) => `warning: ${warning}`);
