import { describe, expect, it } from "vitest";
import { CHECKS } from "./checks/index.ts";
import { FIXTURES } from "./fixtures/index.ts";
import { runChecks } from "./runner.ts";
import { CAUGHT, fixtureUnderTest, HOST_SCENARIOS } from "./test-support.ts";

describe("conformance self-test: every check can fail", () => {
  it("has exactly one fixture for every check", () => {
    const ids = CHECKS.map((check) => check.id).sort();
    expect(FIXTURES.map((fixture) => fixture.check).sort()).toEqual(ids);
  });

  it("has as many fixtures as checks (the README's \"N checks, N fixtures, all caught\")", () => {
    expect(new Set(FIXTURES.map((fixture) => fixture.check)).size).toBe(CHECKS.length);
    expect(FIXTURES).toHaveLength(CHECKS.length);
  });
});

/**
 * One certification per fixture answers both questions: every check plays its probes, and the
 * checks of the fixture's own rule also play the host's passes of one scenario (the bundled-engine
 * and mutation tests play them all): enough to show the flaw is caught where the host calls it too.
 * A check's outcome depends only on the runs it reads, so the other rules' checks judge exactly
 * what a probes-only certification would have given them.
 */
const ownRuleWithOneScenario = (rule: string) =>
  CHECKS.map((check) => {
    if (check.rule !== rule || check.scenarios.length === 0) return { ...check, scenarios: [] };
    return { ...check, scenarios: [check.scenarios.includes("parallel-tool-calls") ? "parallel-tool-calls" : check.scenarios[0]!] };
  });

describe("conformance self-test: each fixture fails its own check, and no check of another rule catches it (but those its flaw breaks by nature)", () => {
  it.each(FIXTURES.map((fixture) => [fixture.check, fixture] as const))("%s", async (id, fixture) => {
    const rule = CHECKS.find((check) => check.id === id)!.rule;
    const allowed = new Set([rule, ...(fixture.alsoBreaks ?? [])]);
    const results = await runChecks(fixtureUnderTest(fixture), ownRuleWithOneScenario(rule), { seed: 1, scenarios: HOST_SCENARIOS });
    expect(results).toHaveLength(CHECKS.length);
    const own = results.find((result) => result.id === id)!;
    expect(own.outcome, own.message).toBe("fail");
    expect(own.evidence.length).toBeGreaterThan(0);
    const strays = results.filter((result) => !allowed.has(result.rule) && CAUGHT.has(result.outcome)).map((result) => `${result.id}: ${result.outcome}: ${result.message}`);
    expect(strays).toEqual([]);
    for (const also of fixture.alsoBreaks ?? []) expect(results.some((result) => result.rule === also && CAUGHT.has(result.outcome)), `${also} declared but not caught`).toBe(true);
  });
});
