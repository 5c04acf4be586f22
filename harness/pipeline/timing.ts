import type { RunOutcome } from "../conformance/evaluate.ts";
import type { Certification, RunTiming } from "../conformance/check-result.ts";
import type { BaselineFigure } from "../bench/baseline.ts";

/** Milliseconds spent inside the engine's hooks, over every call one run's trace holds. */
function hookTimeMs(run: RunOutcome & { ok: true }): number {
  let total = 0;
  for (const event of run.trace) if (event.type === "engine-call" && Number.isFinite(event.durationMs)) total += event.durationMs;
  return total;
}

const tenth = (ms: number) => Math.round(ms * 10) / 10;

/**
 * Where the players' time went, over the runs that came back. Runs play side by side on several
 * players, so their times are summed, and the engine's share is set against that sum, not against
 * the stage's wall time (which the summed time of a slow engine exceeds: a Python engine's read
 * "harness 0 ms" that way). Within a run, concurrent hook calls each count, up to the run's own
 * time. A run that did not come back has no trace to split, so it is left out of both.
 */
export function runTiming(wallMs: number, outcomes: Iterable<RunOutcome>): RunTiming {
  let playersMs = 0;
  let engineMs = 0;
  for (const outcome of outcomes) {
    if (!outcome.ok) continue;
    const runMs = Math.max(0, outcome.durationMs);
    playersMs += runMs;
    engineMs += Math.min(runMs, hookTimeMs(outcome));
  }
  return { wallMs: tenth(wallMs), playersMs: tenth(playersMs), engineMs: tenth(engineMs), harnessMs: tenth(playersMs - engineMs) };
}

/**
 * What a baseline remembers of a certification: the run stage's wall time and the harness's share
 * of it, keyed `certify/<engine>/…`. One run has no interval of its own, so a regression is judged
 * against the noise floor alone.
 */
export function certificationFigures(certification: Pick<Certification, "engine" | "timing">): Record<string, BaselineFigure> {
  const timing = certification.timing;
  if (timing === undefined) return {};
  const figure = (value: number): BaselineFigure => ({ value, relativeUncertainty: 0, higherIsBetter: false });
  return { [`certify/${certification.engine.name}/wall-ms`]: figure(timing.wallMs), [`certify/${certification.engine.name}/harness-ms`]: figure(timing.harnessMs) };
}
