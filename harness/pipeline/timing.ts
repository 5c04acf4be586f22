import type { RunOutcome } from "../conformance/evaluate.ts";
import type { Certification, RunTiming } from "../conformance/check-result.ts";
import type { BaselineFigure } from "../bench/baseline.ts";

/** Milliseconds spent inside the engine's hooks, over every call the recorded traces hold. */
export function engineTimeMs(outcomes: Iterable<RunOutcome>): number {
  let total = 0;
  for (const outcome of outcomes) {
    if (!outcome.ok) continue;
    for (const event of outcome.trace) if (event.type === "engine-call" && Number.isFinite(event.durationMs)) total += event.durationMs;
  }
  return total;
}

const tenth = (ms: number) => Math.round(ms * 10) / 10;

/** The run's wall time split into the engine's share and the harness's. */
export function runTiming(wallMs: number, outcomes: Iterable<RunOutcome>): RunTiming {
  const engineMs = engineTimeMs(outcomes);
  return { wallMs: tenth(wallMs), engineMs: tenth(engineMs), harnessMs: tenth(Math.max(0, wallMs - engineMs)) };
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
