import { evaluateChecks } from "../conformance/evaluate.ts";
import { abridge } from "../conformance/excerpt.ts";
import type { Expectations } from "../conformance/expectations.ts";
import type { EvaluatedCheck } from "../conformance/types.ts";
import { expectedOutcome, isUnexpected } from "../conformance/verdict.ts";
import type { CapturedStream } from "../player/output.ts";
import type { IntegrityFinding as PlayerFinding } from "../player/protocol.ts";
import { certificationOf } from "../conformance/verdict.ts";
import type { Certification, CheckResult as ReportedCheck, IntegrityFinding } from "../conformance/check-result.ts";
import type { CertificationPlan } from "./plan.ts";
import { replayCommands } from "./replay.ts";
import type { RunStageResult } from "./run.ts";

export interface AssembledCertification {
  certification: Certification;
  /** Every check's result, as evaluated. */
  results: EvaluatedCheck[];
  /** The unexpected outcomes other than a pass: what gets a repro. */
  failures: EvaluatedCheck[];
  /** The expectations the verdict was judged against. */
  expectations: Expectations;
  /** Where they came from, or null. */
  expectationsPath: string | null;
  warnings: string[];
}

/** Changes in the user's tree seen around the run (see tree-watch.ts). */
export type OutsideWrite = { path: string; change: "changed" | "removed" | "added" };

/**
 * Judge a run (pure): every planned check over the traces it reads, expectations applied once
 * (expected and unexpected are decided here), integrity findings, the verdict. A planned check
 * that did not come back from its own evaluation is `error`. `evaluated`: the checks' results when
 * they were evaluated as the runs came in (EarlyChecks), else they are evaluated here.
 */
export function assembleCertification(plan: CertificationPlan, stage: RunStageResult, outsideWrites: readonly OutsideWrite[], evaluated?: readonly EvaluatedCheck[]): AssembledCertification {
  evaluated ??= evaluateChecks(plan.checks, stage.outcomes, { seeds: plan.seeds, withScenarios: plan.withScenarios });
  const results = plan.checks.map(
    (check, index) =>
      evaluated[index] ?? { id: check.id, rule: check.rule, level: check.level, title: check.title, outcome: "error" as const, message: "the check was planned but never evaluated", evidence: [], durationMs: 0, sources: [], seeds: plan.seeds, shownBy: [] },
  );
  const chosen = plan.expectations.path !== null ? plan.expectations : plan.expectations.byLocation.get(stage.engine.location);
  const expectations = chosen?.entries ?? new Map();
  const reported = results.map((result) => reportCheck(result, plan.flags, expectations));
  const integrity = integrityFindings(stage, outsideWrites);
  const scope = { shard: plan.shard, seeds: plan.seeds, checkSetDigest: plan.checkSetDigest };
  const certification = certificationOf({ name: stage.engine.name, version: stage.engine.version ?? "unversioned" }, reported, scope, integrity);
  const failures = results.filter((result, index) => result.outcome !== "pass" && reported[index]!.unexpected);
  return { certification, results, failures, expectations, expectationsPath: chosen?.path ?? null, warnings: chosen?.warnings ?? [] };
}

/** One check as the result JSON reports it: expectation applied, evidence abridged, a repro for an unexpected outcome. */
export function reportCheck(result: EvaluatedCheck, flags: readonly string[], expectations: Expectations): ReportedCheck {
  const expected = expectedOutcome(result.id, expectations);
  const unexpected = isUnexpected(result.outcome, expected);
  const reason = expectations.get(result.id)?.reason;
  const message = !unexpected && expected !== null && reason ? `${result.message} (expected: ${reason})` : result.message;
  const notes = result.evidence.map((item) => item.note);
  const reported: ReportedCheck = {
    id: result.id,
    rule: result.rule,
    title: result.title,
    level: result.level,
    outcome: result.outcome,
    expected,
    unexpected,
    message,
    evidence: {
      events: result.evidence.map((item) => ({ source: item.source, seq: item.seq, note: item.note, event: abridge(item.event) })),
      ...(notes.length > 0 ? { note: notes.join("; ") } : {}),
    },
    durationMs: Math.round(result.durationMs * 10) / 10,
  };
  if (result.skipReason !== undefined) reported.skipReason = result.skipReason;
  if (unexpected && result.outcome !== "pass") {
    const shown = result.shownBy[0];
    reported.repro = { scenario: shown?.source ?? result.sources[0] ?? "", seed: shown?.seed ?? result.seeds[0] ?? 1, command: replayCommands(flags, result).certify };
  }
  return reported;
}

/** The findings that make a run untrustworthy, each saying what happened. */
export function integrityFindings(stage: { intrinsics: readonly PlayerFinding[]; forgedFrames: number }, outsideWrites: readonly OutsideWrite[]): IntegrityFinding[] {
  const findings: IntegrityFinding[] = [];
  const intrinsics = [...new Map(stage.intrinsics.map((finding) => [`${finding.change}:${finding.target}`, finding])).values()];
  if (intrinsics.length > 0) {
    const listed = intrinsics.slice(0, 8).map((finding) => `${finding.target} (${finding.change}${finding.during === "load" ? " when it was loaded" : ` during ${finding.during}`})`);
    findings.push({ kind: "intrinsic-replaced", message: `the engine changed intrinsics the harness relies on: ${listed.join(", ")}${intrinsics.length > 8 ? `, and ${intrinsics.length - 8} more` : ""}` });
  }
  if (stage.forgedFrames > 0) {
    findings.push({ kind: "forged-frames", message: `${stage.forgedFrames} frame(s) on the player channel failed authentication: something other than the player wrote there` });
  }
  if (outsideWrites.length > 0) {
    const listed = outsideWrites.slice(0, 8).map((write) => `${write.path} (${write.change})`);
    findings.push({ kind: "outside-write", message: `files outside the engine's sandbox changed during the run: ${listed.join(", ")}${outsideWrites.length > 8 ? `, and ${outsideWrites.length - 8} more` : ""}` });
  }
  return findings;
}

/** One line about what the engine printed (never parsed), or null when it printed nothing. */
export function outputSummary(output: { stdout: CapturedStream; stderr: CapturedStream }): string | null {
  const parts: string[] = [];
  for (const [name, stream] of [["stdout", output.stdout], ["stderr", output.stderr]] as const) {
    if (stream.bytes === 0) continue;
    const first = stream.head.split("\n").find((line) => line.trim() !== "") ?? "";
    parts.push(`${stream.bytes} bytes in ${stream.lines} line(s) on ${name} (first: ${JSON.stringify(first.length > 120 ? `${first.slice(0, 117)}...` : first)})`);
  }
  return parts.length === 0 ? null : `the engine printed ${parts.join(" and ")}; it is not part of the result`;
}
