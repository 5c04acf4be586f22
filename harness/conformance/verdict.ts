import type { Expectations } from "./expectations.ts";
import type { Level, Outcome } from "./types.ts";

/** The outcome an engine's expectations file lists for a check, or null (a pass is then expected). */
export function expectedOutcome(id: string, expectations: Expectations): Outcome | null {
  return expectations.get(id)?.expected ?? null;
}

/**
 * Unexpected: the outcome differs from the listed one, or (with none listed) is anything but a
 * pass. A skip with nothing listed is expected: it only says the rule does not apply.
 */
export function isUnexpected(outcome: Outcome, expected: Outcome | null): boolean {
  if (expected === null) return outcome !== "pass" && outcome !== "skipped";
  return outcome !== expected;
}

export type Verdict = "certified" | "not-certified";

/**
 * The verdict policy (decided here only): certified when no MUST check has an unexpected outcome
 * other than a pass (an unexpected pass is reported, not fatal; SHOULD outcomes are warnings),
 * and nothing made the run untrustworthy (an integrity finding).
 */
export function verdictOf(checks: ReadonlyArray<{ level: Level; outcome: Outcome; unexpected: boolean }>, integrityFindings = 0): Verdict {
  if (integrityFindings > 0) return "not-certified";
  return checks.some((check) => check.level === "MUST" && check.unexpected && check.outcome !== "pass") ? "not-certified" : "certified";
}
