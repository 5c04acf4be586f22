import type { Scenario } from "../../scenarios/format.ts";
import type { Trace } from "../trace/events.ts";
import { sourceKey, sourcesOf, parseSourceLabel } from "./sources.ts";
import type { Check, EvaluatedCheck, CheckRun, Evidence, Outcome } from "./types.ts";

/** What became of one run: its recorded trace, or why there is none (the run stage's timeout or error). */
export type RunOutcome =
  | { ok: true; trace: Trace; scenario: Scenario | null; durationMs: number }
  | { ok: false; outcome: Extract<Outcome, "error" | "timeout">; message: string; durationMs: number };

export interface EvaluateOptions {
  seeds: readonly number[];
  /** Whether checks read their scenarios (false: probes only). */
  withScenarios: boolean;
}

/**
 * Every check over the runs it reads, at every seed (pure: the same runs give the same results).
 * A check reading a run that could not be recorded gets that run's outcome; a check that throws
 * is `error`. A run's recording time is charged to the first check that reads it.
 */
export function evaluateChecks(checks: readonly Check[], outcomes: ReadonlyMap<string, RunOutcome>, options: EvaluateOptions): EvaluatedCheck[] {
  const charged = new Set<string>();
  return checks.map((check) => {
    const labels = sourcesOf(check, options.withScenarios);
    const keyed = options.seeds.flatMap((seed) => labels.map((label) => ({ label, seed, key: sourceKey({ ...parseSourceLabel(label), seed }) })));
    let recordingMs = 0;
    for (const { key } of keyed) {
      if (charged.has(key)) continue;
      charged.add(key);
      recordingMs += outcomes.get(key)?.durationMs ?? 0;
    }
    return evaluateCheck(check, keyed, outcomes, options.seeds, recordingMs);
  });
}

function evaluateCheck(
  check: Check,
  keyed: ReadonlyArray<{ label: string; seed: number; key: string }>,
  outcomes: ReadonlyMap<string, RunOutcome>,
  seeds: readonly number[],
  recordingMs: number,
): EvaluatedCheck {
  const base = { id: check.id, rule: check.rule, level: check.level, title: check.title, sources: [...new Set(keyed.map((k) => k.label))], seeds: [...seeds] };
  const seedNote = (seed: number) => (seeds.length > 1 ? ` (seed ${seed})` : "");
  const runs: CheckRun[] = [];
  for (const { label, seed, key } of keyed) {
    const outcome = outcomes.get(key);
    if (outcome === undefined) return { ...base, outcome: "error", message: `${label}${seedNote(seed)} was never recorded`, evidence: [], durationMs: recordingMs, shownBy: [{ source: label, seed }] };
    if (!outcome.ok) return { ...base, outcome: outcome.outcome, message: `${outcome.message}${seedNote(seed)}`, evidence: [], durationMs: recordingMs, shownBy: [{ source: label, seed }] };
    runs.push({ source: label, seed, scenario: outcome.scenario, trace: outcome.trace });
  }
  const started = performance.now();
  try {
    const evaluation = check.evaluate(runs);
    const evidence = evaluation.evidence.map((item) => ({ ...item, seed: seedOf(item, runs) }));
    const result: EvaluatedCheck = {
      ...base,
      outcome: evaluation.outcome,
      message: evaluation.message,
      evidence,
      durationMs: recordingMs + performance.now() - started,
      shownBy: shownBy(evidence, keyed),
    };
    if (evaluation.skipReason !== undefined) result.skipReason = evaluation.skipReason;
    return result;
  } catch (error) {
    return {
      ...base,
      outcome: "error",
      message: `evaluating the check failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
      evidence: [],
      durationMs: recordingMs + performance.now() - started,
      shownBy: keyed.map(({ label, seed }) => ({ source: label, seed })),
    };
  }
}

/** The seed of the run an evidence event was taken from (found by the event itself). */
function seedOf(item: Evidence, runs: readonly CheckRun[]): number {
  const candidates = runs.filter((run) => run.source === item.source);
  const exact = candidates.find((run) => run.trace[item.seq] === item.event);
  return (exact ?? candidates[0] ?? runs[0])?.seed ?? 0;
}

function shownBy(evidence: readonly Evidence[], keyed: ReadonlyArray<{ label: string; seed: number }>): Array<{ source: string; seed: number }> {
  const pairs = new Map<string, { source: string; seed: number }>();
  for (const item of evidence) pairs.set(`${item.source}#${item.seed}`, { source: item.source, seed: item.seed ?? 0 });
  if (pairs.size > 0) return [...pairs.values()];
  return keyed.map(({ label, seed }) => ({ source: label, seed }));
}
