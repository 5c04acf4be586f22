/**
 * The verdict policy and what it reads: whether an outcome was expected, the summary, the
 * verdict over reported checks and integrity findings, and the certification built from them.
 */
import { createHash } from "node:crypto";
import type { Certification, CheckResult, CheckSummary, IntegrityFinding, NamedVersion, Shard, Verdict } from "./check-result.ts";
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

export function summarizeChecks(checks: readonly CheckResult[]): CheckSummary {
  const summary: CheckSummary = { total: checks.length, pass: 0, fail: 0, error: 0, timeout: 0, skipped: 0, indeterminate: 0, unexpected: 0 };
  for (const check of checks) {
    summary[check.outcome] += 1;
    if (check.unexpected) summary.unexpected += 1;
  }
  return summary;
}

/**
 * The verdict policy (decided here only): certified when no MUST check has an unexpected outcome
 * other than a pass (an unexpected pass is reported, not fatal; SHOULD outcomes are warnings),
 * and nothing made the run untrustworthy (an integrity finding). No checks certify nothing: an
 * empty shard is not a certification.
 */
export function verdictOf(checks: ReadonlyArray<{ level: Level; outcome: Outcome; unexpected: boolean }>, integrityFindings = 0): Verdict {
  if (integrityFindings > 0 || checks.length === 0) return "not-certified";
  return checks.some((check) => check.level === "MUST" && check.unexpected && check.outcome !== "pass") ? "not-certified" : "certified";
}

/** Identifies a selection of checks (ids and levels), whatever their order: shards of one run share it. */
export function checkSetDigest(checks: readonly { id: string; level: string }[]): string {
  const lines = checks.map((check) => `${check.id} ${check.level}\n`).sort();
  return createHash("sha256").update(lines.join("")).digest("hex").slice(0, 16);
}

/** What makes a certification comparable with another: which shard, which seeds, which check set. */
export interface CertificationScope {
  shard: Shard | null;
  seeds: number[];
  checkSetDigest: string;
}

/** Builds a certification whose verdict and summary are computed from its checks and integrity findings. */
export function certificationOf(engine: NamedVersion, checks: CheckResult[], run: CertificationScope, integrity: readonly IntegrityFinding[] = []): Certification {
  return {
    engine,
    verdict: verdictOf(checks, integrity.length),
    shard: run.shard,
    seeds: run.seeds,
    checkSetDigest: run.checkSetDigest,
    checks,
    summary: summarizeChecks(checks),
    ...(integrity.length > 0 ? { integrity: [...integrity] } : {}),
  };
}
