import { describe, expect, it } from "vitest";
import { loadEngine } from "../plugins/load.ts";
import { CHECKS } from "./checks/index.ts";
import { FixtureBaseEngine } from "./fixtures/index.ts";
import { runChecks } from "./runner.ts";
import { CAUGHT, HOST_SCENARIOS } from "./test-support.ts";

const repoRoot = new URL("../..", import.meta.url).pathname;

// Whole certifications in this process: minutes when the machine is loaded, so their bound is the
// run's, not vitest's 60 s per test (speed is the benchmarks' business, not these tests').
const WHOLE_CERTIFICATION_MS = 300_000;

describe("the bundled engines pass every check", { timeout: WHOLE_CERTIFICATION_MS }, () => {
  it.each(["compressor", "truncate", "lcm"])("%s: no check fails (all checks, with scenarios)", async (name) => {
    const loaded = await loadEngine({ name, cwd: repoRoot, strict: true });
    const results = await runChecks({ name: loaded.name, version: loaded.version, selectedName: loaded.selected, createFresh: loaded.createFresh }, CHECKS, {
      seed: 1,
      scenarios: HOST_SCENARIOS,
    });
    const problems = results.filter((result) => CAUGHT.has(result.outcome) || result.outcome === "indeterminate").map((result) => `${result.id}: ${result.outcome}: ${result.message}`);
    expect(problems).toEqual([]);
    expect(results).toHaveLength(CHECKS.length);
    // The committed outcome of every check: a speed-up of the harness must leave each one as it was
    // (a deliberate change of a check updates the file: `npx vitest run -u` and say why).
    const outcomes = Object.fromEntries(results.map((result) => [result.id, result.outcome]));
    await expect(`${JSON.stringify(outcomes, null, 2)}\n`).toMatchFileSnapshot(`./bundled-outcomes/${name}.json`);
  });

  it("the fixture base engine passes every check, so each fixture's failure is its flaw alone", async () => {
    const results = await runChecks({ name: "fixture-base", version: "0", selectedName: "fixture-base", createFresh: async () => new FixtureBaseEngine() }, CHECKS, { seed: 1, scenarios: HOST_SCENARIOS });
    expect(results.filter((result) => result.outcome !== "pass" && result.outcome !== "skipped").map((r) => `${r.id}: ${r.message}`)).toEqual([]);
  });
});

describe("determinism", { timeout: WHOLE_CERTIFICATION_MS }, () => {
  it("the same engine and seed give the same outcomes and messages twice", async () => {
    const loaded = await loadEngine({ name: "compressor", cwd: repoRoot, strict: true });
    const engine = { name: loaded.name, version: loaded.version, selectedName: loaded.selected, createFresh: loaded.createFresh };
    const picked = CHECKS.filter((check) => ["CMP-1", "UID-7", "THR-2", "ABC-5"].includes(check.rule));
    const once = await runChecks(engine, picked, { seed: 3, scenarios: HOST_SCENARIOS });
    const twice = await runChecks(engine, picked, { seed: 3, scenarios: HOST_SCENARIOS });
    const view = (results: typeof once) => results.map((r) => ({ id: r.id, outcome: r.outcome, message: r.message, evidence: r.evidence.map((e) => e.seq) }));
    expect(view(twice)).toEqual(view(once));
  });
});
