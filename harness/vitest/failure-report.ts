import { abridge } from "../conformance/excerpt.ts";
import type { EvaluatedCheck, Outcome } from "../conformance/types.ts";

const MAX_EVIDENCE = 5;

/** What a failing test shows: outcome and message, the evidence events (abridged), and how to replay it with the CLI. */
export function failureReport(result: EvaluatedCheck, selection: string, pluginDirectory: string | null, seed: number, expected: Outcome | null): string {
  const lines = [`${result.id} [${result.level}] ${result.outcome}${expected === null ? "" : ` (expected ${expected})`}: ${result.message}`];
  if (result.evidence.length > 0) {
    lines.push("evidence:");
    for (const evidence of result.evidence.slice(0, MAX_EVIDENCE)) {
      lines.push(`  ${evidence.source} #${evidence.seq}: ${evidence.note}`, `    ${JSON.stringify(abridge(evidence.event))}`);
    }
    if (result.evidence.length > MAX_EVIDENCE) lines.push(`  … ${result.evidence.length - MAX_EVIDENCE} more`);
  }
  if (pluginDirectory !== null) {
    const plugins = pluginDirectory.replace(/[\\/][^\\/]+[\\/]?$/, "");
    lines.push(`replay: npx ctxbench certify --plugins ${quote(plugins)} --engine ${quote(selection)} --checks ${result.id} --seed ${seed}`);
  }
  return lines.join("\n");
}

function quote(text: string): string {
  return /^[\w./@:-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`;
}
