/**
 * Facts about a result's checks that its shape cannot state, so that a hand-edited result is
 * refused instead of rendered or merged as a verdict: each `unexpected` is what the outcome and
 * the expectation give (a `fail` marked `unexpected: false` with nothing expected would read as
 * certified), and no check appears twice in one certification.
 */
import type { Check } from "../harness/conformance/types.ts";
import { isUnexpected } from "../harness/conformance/verdict.ts";
import type { Problem } from "./schema-dsl.ts";
import type { ResultJson } from "./result.ts";

function describeExpected(expected: string | null): string {
  return expected === null ? "no expectation listed" : `expected "${expected}"`;
}

/** The first check whose `unexpected` disagrees with its outcome and expectation, or that repeats an id. */
export function checksCoherenceProblem(result: ResultJson): Problem | null {
  for (const [index, certification] of result.certifications.entries()) {
    const seen = new Set<string>();
    for (const [position, check] of certification.checks.entries()) {
      const path = `$.certifications[${index}].checks[${position}]`;
      if (seen.has(check.id)) return { path: `${path}.id`, message: `check "${check.id}" appears twice in the certification of "${certification.engine.name}"` };
      seen.add(check.id);
      const unexpected = isUnexpected(check.outcome, check.expected);
      if (check.unexpected !== unexpected) {
        return {
          path: `${path}.unexpected`,
          message: `is ${check.unexpected}, but outcome "${check.outcome}" with ${describeExpected(check.expected)} is ${unexpected ? "unexpected" : "expected"}`,
        };
      }
    }
  }
  return null;
}

/**
 * The first check a catalogue does not have, or whose rule or level differs from the
 * catalogue's (a MUST failure turned into a SHOULD one no longer fails a certification).
 */
export function catalogueProblem(result: ResultJson, catalogue: readonly Pick<Check, "id" | "rule" | "level">[], catalogueName: string): Problem | null {
  const byId = new Map(catalogue.map((check) => [check.id, check]));
  for (const [index, certification] of result.certifications.entries()) {
    for (const [position, check] of certification.checks.entries()) {
      const path = `$.certifications[${index}].checks[${position}]`;
      const known = byId.get(check.id);
      if (known === undefined) return { path: `${path}.id`, message: `"${check.id}" is not a check of ${catalogueName}` };
      if (known.rule !== check.rule) return { path: `${path}.rule`, message: `is "${check.rule}", but check "${check.id}" belongs to rule ${known.rule}` };
      if (known.level !== check.level) return { path: `${path}.level`, message: `is "${check.level}", but check "${check.id}" is ${known.level}` };
    }
  }
  return null;
}
