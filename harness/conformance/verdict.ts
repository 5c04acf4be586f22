/** The verdict over reported checks, and the certification built from them. */
import { createHash } from "node:crypto";
import type { Certification, CheckResult, CheckSummary, NamedVersion, Shard, Verdict } from "./check-result.ts";

export function summarizeChecks(checks: readonly CheckResult[]): CheckSummary {
  const summary: CheckSummary = { total: checks.length, pass: 0, fail: 0, error: 0, timeout: 0, skipped: 0, indeterminate: 0, unexpected: 0 };
  for (const check of checks) {
    summary[check.outcome] += 1;
    if (check.unexpected) summary.unexpected += 1;
  }
  return summary;
}

/**
 * Certified when no MUST check has an unexpected outcome (decision 7); an unexpected pass is
 * reported, not fatal. No checks certify nothing: an empty shard is not a certification.
 */
export function verdictOf(checks: readonly CheckResult[]): Verdict {
  if (checks.length === 0) return "not-certified";
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

/** Builds a certification whose verdict and summary are computed from its checks. */
export function certificationOf(engine: NamedVersion, checks: CheckResult[], run: CertificationScope): Certification {
  return {
    engine,
    verdict: verdictOf(checks),
    shard: run.shard,
    seeds: run.seeds,
    checkSetDigest: run.checkSetDigest,
    checks,
    summary: summarizeChecks(checks),
  };
}
