import type { CheckResult } from "../result/index.ts";

const MAX_EVIDENCE = 5;

/** An evidence event as the pipeline reports it (the result JSON keeps them as JSON values). */
interface ReportedEvidence {
  source?: unknown;
  seq?: unknown;
  note?: unknown;
  event?: unknown;
}

/** What a failing test shows: outcome and message, the evidence events (as the result JSON abridges them), and certify's replay command. */
export function failureReport(result: CheckResult): string {
  const lines = [`${result.id} [${result.level}] ${result.outcome}${result.expected === null ? "" : ` (expected ${result.expected})`}: ${result.message}`];
  const events = result.evidence.events as ReportedEvidence[];
  if (events.length > 0) {
    lines.push("evidence:");
    for (const evidence of events.slice(0, MAX_EVIDENCE)) lines.push(`  ${evidence.source} #${evidence.seq}: ${evidence.note}`, `    ${JSON.stringify(evidence.event)}`);
    if (events.length > MAX_EVIDENCE) lines.push(`  … ${events.length - MAX_EVIDENCE} more`);
  }
  if (result.repro !== undefined) lines.push(`replay: npx ${result.repro.command}`);
  return lines.join("\n");
}
