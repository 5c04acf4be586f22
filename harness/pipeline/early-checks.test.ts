import { describe, expect, it } from "vitest";
import type { RunOutcome } from "../conformance/evaluate.ts";
import type { Check } from "../conformance/types.ts";
import { EarlyChecks } from "./early-checks.ts";

const run = (name: string) => ({ source: { kind: "probe" as const, name, seed: 1 } });
const recorded: RunOutcome = { ok: true, trace: [], scenario: null, durationMs: 1 };
const turn = () => new Promise((resolve) => setImmediate(resolve));

function watched(id: string, probes: string[], judged: string[]): Check {
  return { id, rule: id, level: "MUST", title: id, scenarios: [], probes, evaluate: () => (judged.push(id), { outcome: "pass", message: id, evidence: [] }) };
}

describe("checks judged as the run stage goes", () => {
  it("wait while runs are still to be handed out, then are judged one per turn of the event loop; results come in the checks' order", async () => {
    const judged: string[] = [];
    const checks = [watched("X-1", ["a", "b"], judged), watched("X-2", ["a"], judged), watched("X-3", ["c"], judged)];
    const early = new EarlyChecks(checks, { seeds: [1], withScenarios: true });
    early.settled(run("a"), recorded, 2);
    await turn();
    // X-2 has its run, but two runs wait for a player: judging it now would keep a player waiting.
    expect(judged).toEqual([]);
    early.settled(run("b"), recorded, 0);
    await turn();
    expect(judged).toEqual(["X-2"]);
    await turn();
    expect(judged).toEqual(["X-2", "X-1"]);
    const outcomes = new Map<string, RunOutcome>([["probe:a#1", recorded], ["probe:b#1", recorded], ["probe:c#1", recorded]]);
    const results = early.results(outcomes);
    expect(results.map((result) => result.id)).toEqual(["X-1", "X-2", "X-3"]);
    // Each check judged once: X-3 at the end, the others not again.
    expect(judged).toEqual(["X-2", "X-1", "X-3"]);
  });
});
