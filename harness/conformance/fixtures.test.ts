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

  // The own-rule run adds the host's passes of one scenario to the probes (the bundled-engine and
  // mutation tests play them all): enough to show the flaw is caught where the host calls it too.
  const withOneScenario = (check: (typeof CHECKS)[number]) => ({ ...check, scenarios: check.scenarios.length > 0 ? [check.scenarios.includes("parallel-tool-calls") ? "parallel-tool-calls" : check.scenarios[0]!] : [] });

  it.each(FIXTURES.map((fixture) => [fixture.check, fixture] as const))("the %s fixture fails its check (own rule's checks, probes and a scenario)", async (id, fixture) => {
    const rule = CHECKS.find((check) => check.id === id)!.rule;
    const results = await runChecks(
      fixtureUnderTest(fixture),
      CHECKS.filter((check) => check.rule === rule).map(withOneScenario),
      { seed: 1, scenarios: HOST_SCENARIOS },
    );
    const own = results.find((result) => result.id === id)!;
    expect(own.outcome, own.message).toBe("fail");
    expect(own.evidence.length).toBeGreaterThan(0);
  });

  it("has as many fixtures as checks (the README's \"N checks, N fixtures, all caught\")", () => {
    expect(new Set(FIXTURES.map((fixture) => fixture.check)).size).toBe(CHECKS.length);
    expect(FIXTURES).toHaveLength(CHECKS.length);
  });
});

describe("conformance self-test: each fixture fails only its own rule (and those its flaw breaks by nature)", () => {
  it.each(FIXTURES.map((fixture) => [fixture.check, fixture] as const))("%s: no check of another rule catches it (all checks, probes)", async (id, fixture) => {
    const rule = CHECKS.find((check) => check.id === id)!.rule;
    const allowed = new Set([rule, ...(fixture.alsoBreaks ?? [])]);
    const results = await runChecks(fixtureUnderTest(fixture), CHECKS, { seed: 1 });
    const strays = results.filter((result) => !allowed.has(result.rule) && CAUGHT.has(result.outcome)).map((result) => `${result.id}: ${result.outcome}: ${result.message}`);
    expect(strays).toEqual([]);
    expect(CAUGHT.has(results.find((result) => result.id === id)!.outcome)).toBe(true);
    for (const also of fixture.alsoBreaks ?? []) expect(results.some((result) => result.rule === also && CAUGHT.has(result.outcome)), `${also} declared but not caught`).toBe(true);
  });
});
