import { describe, expect, it } from "vitest";
import type { Trace } from "../trace/events.ts";
import { CheckEvaluation, evaluateChecks, type RunOutcome } from "./evaluate.ts";
import type { Check, CheckRun } from "./types.ts";

const trace = (events: number): Trace => Array.from({ length: events }, (_, seq) => ({ seq, type: "note", text: `e${seq}` }) as unknown as Trace[number]);
const outcomes = new Map<string, RunOutcome>([
  ["probe:a#1", { ok: true, trace: trace(1), scenario: null, durationMs: 5 }],
  ["probe:b#1", { ok: true, trace: trace(2), scenario: null, durationMs: 7 }],
  ["probe:c#1", { ok: false, outcome: "timeout", message: "probe:c did not finish", durationMs: 11 }],
]);

/** A check over `probes` that counts its runs' events and remembers the CheckRun objects it was given. */
function counting(id: string, probes: string[], seen: CheckRun[][]): Check {
  return {
    id,
    rule: id,
    level: "MUST",
    title: id,
    scenarios: [],
    probes,
    evaluate(runs) {
      seen.push([...runs]);
      return { outcome: "pass", message: `${runs.reduce((sum, run) => sum + run.trace.length, 0)} events`, evidence: [] };
    },
  };
}

const view = (results: ReturnType<typeof evaluateChecks>) => results.map(({ durationMs, ...rest }) => ({ ...rest, recordingAtLeast: Math.floor(durationMs) }));

describe("checks evaluated as their runs settle", () => {
  const options = { seeds: [1], withScenarios: true };

  it("give what one evaluation at the end gives, in the checks' order, whatever order the runs settle in", () => {
    const checks = [counting("X-1", ["a", "b"], []), counting("X-2", ["b"], []), counting("X-3", ["c", "a"], []), counting("X-4", ["a"], [])];
    const atEnd = evaluateChecks(checks, outcomes, options);
    for (const order of [["probe:a#1", "probe:b#1", "probe:c#1"], ["probe:c#1", "probe:b#1", "probe:a#1"]]) {
      const evaluation = new CheckEvaluation(checks, options);
      const settled = new Map<string, RunOutcome>();
      const readyAfter: string[][] = [];
      for (const key of order) {
        settled.set(key, outcomes.get(key)!);
        const ready = evaluation.settled(key);
        readyAfter.push(ready.map((index) => checks[index]!.id));
        for (const index of ready) evaluation.evaluate(index, settled);
      }
      expect(view(evaluation.results(outcomes))).toEqual(view(atEnd));
      // A check is ready once, when the last run it reads settles.
      expect(readyAfter.flat().sort()).toEqual(["X-1", "X-2", "X-3", "X-4"]);
    }
    // A run's recording time is charged to the first check (in order) that reads it: a to X-1, b to X-1, c to X-3.
    expect(atEnd.map((result) => Math.floor(result.durationMs))).toEqual([12, 0, 11, 0]);
    expect(atEnd[2]).toMatchObject({ outcome: "timeout", message: "probe:c did not finish" });
  });

  it("hand every check reading a run the same CheckRun, so what a check derives from a run is derived once", () => {
    const seen: CheckRun[][] = [];
    evaluateChecks([counting("X-1", ["a", "b"], seen), counting("X-2", ["b", "a"], seen)], outcomes, options);
    const [first, second] = seen;
    expect(first!.map((run) => run.source)).toEqual(["probe:a", "probe:b"]);
    expect(second![1]).toBe(first![0]);
    expect(second![0]).toBe(first![1]);
  });

  it("a check whose run never settled is an error naming it", () => {
    const results = new CheckEvaluation([counting("X-1", ["a", "z"], [])], options).results(outcomes);
    expect(results[0]).toMatchObject({ outcome: "error", message: "probe:z was never recorded" });
  });
});
