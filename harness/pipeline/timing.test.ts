import { describe, expect, it } from "vitest";
import type { RunOutcome } from "../conformance/evaluate.ts";
import type { Trace } from "../trace/events.ts";
import { engineTimeMs, runTiming } from "./timing.ts";

const call = (durationMs: number) => ({ type: "engine-call", durationMs }) as unknown as Trace[number];
const other = (durationMs: number) => ({ type: "compaction", durationMs }) as unknown as Trace[number];
const recorded = (events: Trace): RunOutcome => ({ ok: true, trace: events, scenario: null, durationMs: 999 });

describe("a certification's time split", () => {
  it("counts only the engine's hook calls, over every recorded run; a run that did not come back adds nothing", () => {
    const outcomes: RunOutcome[] = [recorded([call(2), other(50), call(3.5)]), recorded([call(4)]), { ok: false, outcome: "timeout", message: "x", durationMs: 20_000 }];
    expect(engineTimeMs(outcomes)).toBe(9.5);
    expect(runTiming(1000, outcomes)).toEqual({ wallMs: 1000, engineMs: 9.5, harnessMs: 990.5 });
    expect(runTiming(5, outcomes).harnessMs).toBe(0);
  });

});
