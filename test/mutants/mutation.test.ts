import { afterAll, describe, expect, it } from "vitest";
import { CHECKS } from "../../harness/conformance/checks/index.ts";
import type { EvaluatedCheck } from "../../harness/conformance/types.ts";
import { certifyInProcess } from "./corpus.ts";
import { MUTANTS, type Mutant } from "./mutants.ts";
import { oracleViolations } from "./oracle.ts";
import { TidyEngine } from "./tidy/index.ts";

/**
 * The certifier's self-test by mutation: tidy (a correct engine written the way a first engine is)
 * and realistic mutants of it, one small bug each, are certified by every check at the default
 * seed; the reference oracle (oracle.ts: its own reading of the same runs plus its own
 * experiments) decides which rules each breaks. Every rule a mutant breaks must fail a check of
 * that rule, no check of a rule it does not break may fail, and a mutant that breaks no MUST rule
 * must be certified. The corpus is judged on the probes (what the checks read without the
 * catalogue scenarios): they reach every mutant's change and keep the corpus to seconds; the
 * batch splitter is also played through the parallel-tool-calls scenario at seeds 1-5.
 */

/** The seed a certification plays by default. */
const DEFAULT_SEED = 1;
const CAUGHT = new Set(["fail", "error", "timeout"]);
const mustRules = new Set(CHECKS.filter((check) => check.level === "MUST").map((check) => check.rule));
const mustFailures = (results: readonly EvaluatedCheck[]) => results.filter((result) => result.level === "MUST" && result.outcome !== "pass" && result.outcome !== "skipped");
const failedRules = (results: readonly EvaluatedCheck[]) => [...new Set(results.filter((result) => CAUGHT.has(result.outcome)).map((result) => result.rule))].sort();

const score: Array<{ mutant: Mutant; broken: string[]; caught: boolean; certified: boolean }> = [];

describe("mutation score: realistic bugs of a correct engine are caught for the rule they break", () => {
  afterAll(() => {
    const violating = score.filter((entry) => entry.broken.length > 0);
    const caught = violating.filter((entry) => entry.caught);
    const clean = score.filter((entry) => entry.broken.length === 0);
    const lines = score.map((entry) => `  ${entry.broken.length === 0 ? "clean " : entry.caught ? "caught" : "MISSED"}  ${entry.mutant.name.padEnd(24)} breaks ${entry.broken.join(", ") || "nothing"}${entry.certified ? " (certified)" : ""}`);
    console.log(
      `mutation score: ${caught.length}/${violating.length} violating mutants caught for the rule they break (seed ${DEFAULT_SEED}); ${clean.filter((entry) => entry.certified).length}/${clean.length} that break nothing certified\n${lines.join("\n")}`,
    );
  });

  it("tidy passes every check, and the oracle finds nothing", async () => {
    const tidy = await certifyInProcess(() => new TidyEngine(), CHECKS, { seed: DEFAULT_SEED });
    expect(tidy.results.filter((result) => CAUGHT.has(result.outcome) || result.outcome === "indeterminate").map((result) => `${result.id}: ${result.outcome}: ${result.message}`)).toEqual([]);
    expect(oracleViolations(() => new TidyEngine(), tidy.runs)).toEqual([]);
  });

  it.each(MUTANTS.map((mutant) => [mutant.name, mutant] as const))("%s", async (_name, mutant) => {
    const certified = await certifyInProcess(mutant.create, CHECKS, { seed: DEFAULT_SEED });
    const violations = oracleViolations(mutant.create, certified.runs);
    const broken = [...new Set(violations.map((violation) => violation.rule))].sort();
    const failed = failedRules(certified.results);
    const verdictFailures = mustFailures(certified.results);
    score.push({ mutant, broken, caught: broken.length > 0 && broken.every((rule) => failed.includes(rule)), certified: verdictFailures.length === 0 });

    // The oracle agrees with what the mutant's author meant to break (so the corpus stays meaningful)…
    expect(broken, violations.map((v) => `${v.rule} ${v.where}: ${v.what}`).slice(0, 8).join("\n")).toEqual([...mutant.breaks].sort());
    // …every rule it breaks fails a check of that rule, and nothing else is blamed.
    expect(failed, certified.results.filter((r) => CAUGHT.has(r.outcome)).map((r) => `${r.id}: ${r.message}`).join("\n")).toEqual(broken);
    // A mutant that breaks no MUST rule is certified; one that does is not.
    if (broken.some((rule) => mustRules.has(rule))) expect(verdictFailures.length).toBeGreaterThan(0);
    else expect(verdictFailures.map((r) => `${r.id}: ${r.outcome}: ${r.message}`)).toEqual([]);

    // The sweep the issue asks for: CMP-2's checks over the scenario where batches are split, each seed alone.
    const cmp2 = CHECKS.filter((check) => check.rule === "CMP-2").map((check) => ({ ...check, scenarios: check.scenarios.filter((name) => name === "parallel-tool-calls") }));
    for (const seed of mutant.extraSeeds ?? []) {
      const alone = await certifyInProcess(mutant.create, cmp2, { seed, scenarios: true });
      const failing = mustFailures(alone.results);
      expect(failing.map((r) => r.rule), `not certified at seed ${seed}, for CMP-2`).toContain("CMP-2");
      expect(failing[0]!.message).toContain(`seed ${seed}`);
    }
  });

  it("the element is named: parts without type and object content fail CMP-1, empty tool_calls fails CMP-2", async () => {
    const message = async (name: string, id: string) => {
      const mutant = MUTANTS.find((entry) => entry.name === name)!;
      const { results } = await certifyInProcess(mutant.create, CHECKS.filter((check) => check.id === id), { seed: DEFAULT_SEED });
      expect(results[0]!.outcome).toBe("fail");
      return results[0]!.message;
    };
    expect(await message("parts-without-type", "CMP-1/message-shape")).toMatch(/element \d+ \(role \w+\): content\[0\] has type missing; expected a part type such as "text"/);
    expect(await message("object-content", "CMP-1/message-shape")).toMatch(/element \d+ \(role \w+\): content is an object; expected a string or a list of typed parts/);
    expect(await message("empty-tool-calls", "CMP-2/tool-call-shape")).toMatch(/element \d+ \(role assistant\): tool_calls is an empty list/);
  });
});
