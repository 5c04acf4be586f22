import { describe, expect, it } from "vitest";
import type { RunOutcome } from "../conformance/evaluate.ts";
import type { Trace } from "../trace/events.ts";
import { runTiming } from "./timing.ts";

const call = (durationMs: number) => ({ type: "engine-call", durationMs }) as unknown as Trace[number];
const other = (durationMs: number) => ({ type: "compaction", durationMs }) as unknown as Trace[number];
const recorded = (durationMs: number, events: Trace): RunOutcome => ({ ok: true, trace: events, scenario: null, durationMs });

describe("a certification's time split", () => {
  it("counts only the engine's hook calls against the recorded runs' time; a run that did not come back adds nothing", () => {
    const outcomes: RunOutcome[] = [recorded(600, [call(2), other(50), call(3.5)]), recorded(400, [call(4)]), { ok: false, outcome: "timeout", message: "x", durationMs: 20_000 }];
    expect(runTiming(700, outcomes)).toEqual({ wallMs: 700, playersMs: 1000, engineMs: 9.5, harnessMs: 990.5 });
  });

  it("sets a slow engine against the players' summed time, not the wall: runs side by side never make the harness's share vanish", () => {
    // Two players, each 900 ms of a 1,000 ms run in the engine (a Python engine's bridge calls), side by side in 1,050 ms of wall.
    const outcomes = [recorded(1000, [call(900)]), recorded(1000, [call(450), call(450)])];
    const timing = runTiming(1050, outcomes);
    expect(timing).toEqual({ wallMs: 1050, playersMs: 2000, engineMs: 1800, harnessMs: 200 });
    expect(timing.harnessMs / timing.engineMs).toBeCloseTo(1 / 9);
  });

  it("counts a run's concurrent hook calls up to that run's own time", () => {
    // Three sessions' hooks awaited at once for most of a 100 ms run.
    expect(runTiming(100, [recorded(100, [call(90), call(90), call(90)])])).toEqual({ wallMs: 100, playersMs: 100, engineMs: 100, harnessMs: 0 });
  });
});
