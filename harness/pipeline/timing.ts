import type { RunOutcome } from "../conformance/evaluate.ts";
import type { RunTiming } from "../conformance/check-result.ts";

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
