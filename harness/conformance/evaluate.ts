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
  return new CheckEvaluation(checks, options).results(outcomes);
}

/**
 * The same evaluation as evaluateChecks, done as the runs come in: `settled(key)` says which
 * checks have every run they read and can be evaluated now (while other runs still play), and
 * `results` evaluates the rest. Which check a run's recording time is charged to is fixed by the
 * checks' order, not by when each is evaluated, so the results are the same either way.
 */
export class CheckEvaluation {
  readonly #checks: readonly Check[];
  readonly #seeds: readonly number[];
  readonly #keyed: ReadonlyArray<ReadonlyArray<{ label: string; seed: number; key: string }>>;
  readonly #recordingKeys: ReadonlyArray<readonly string[]>;
  readonly #waiting: number[];
  readonly #readers = new Map<string, number[]>();
  readonly #results: Array<EvaluatedCheck | undefined>;
  // One CheckRun per recorded run, shared by every check reading it: the checks' helpers remember
  // what they derive from a run (its compress observations, judgements, leak search) by this object.
  readonly #runs = new Map<string, CheckRun>();

  constructor(checks: readonly Check[], options: EvaluateOptions) {
    this.#checks = checks;
    this.#seeds = options.seeds;
    const charged = new Set<string>();
    this.#keyed = checks.map((check) => {
      const labels = sourcesOf(check, options.withScenarios);
      return options.seeds.flatMap((seed) => labels.map((label) => ({ label, seed, key: sourceKey({ ...parseSourceLabel(label), seed }) })));
    });
    this.#recordingKeys = this.#keyed.map((keyed) => {
      const mine = [...new Set(keyed.map(({ key }) => key))].filter((key) => !charged.has(key));
      for (const key of mine) charged.add(key);
      return mine;
    });
    this.#waiting = this.#keyed.map((keyed, index) => {
      const keys = new Set(keyed.map(({ key }) => key));
      for (const key of keys) this.#readers.set(key, [...(this.#readers.get(key) ?? []), index]);
      return keys.size;
    });
    this.#results = checks.map(() => undefined);
  }

  /** A run is settled (its outcome is in the map given to `evaluate`): the checks that now have every run they read, by index. */
  settled(key: string): number[] {
    const ready: number[] = [];
    for (const index of this.#readers.get(key) ?? []) if (--this.#waiting[index]! === 0) ready.push(index);
    this.#readers.delete(key);
    return ready;
  }

  /** Evaluates check `index` over `outcomes` unless it was evaluated already. */
  evaluate(index: number, outcomes: ReadonlyMap<string, RunOutcome>): void {
    if (this.#results[index] !== undefined) return;
    let recordingMs = 0;
    for (const key of this.#recordingKeys[index]!) recordingMs += outcomes.get(key)?.durationMs ?? 0;
    this.#results[index] = evaluateCheck(this.#checks[index]!, this.#keyed[index]!, outcomes, this.#seeds, recordingMs, this.#runs);
  }

  /** Every check's result in the checks' order, evaluating those not evaluated yet. */
  results(outcomes: ReadonlyMap<string, RunOutcome>): EvaluatedCheck[] {
    return this.#checks.map((_, index) => {
      this.evaluate(index, outcomes);
      return this.#results[index]!;
    });
  }
}

function evaluateCheck(
  check: Check,
  keyed: ReadonlyArray<{ label: string; seed: number; key: string }>,
  outcomes: ReadonlyMap<string, RunOutcome>,
  seeds: readonly number[],
  recordingMs: number,
  shared: Map<string, CheckRun>,
): EvaluatedCheck {
  const base = { id: check.id, rule: check.rule, level: check.level, title: check.title, sources: [...new Set(keyed.map((k) => k.label))], seeds: [...seeds] };
  const seedNote = (seed: number) => (seeds.length > 1 ? ` (seed ${seed})` : "");
  const runs: CheckRun[] = [];
  for (const { label, seed, key } of keyed) {
    const outcome = outcomes.get(key);
    if (outcome === undefined) return { ...base, outcome: "error", message: `${label}${seedNote(seed)} was never recorded`, evidence: [], durationMs: recordingMs, shownBy: [{ source: label, seed }] };
    if (!outcome.ok) return { ...base, outcome: outcome.outcome, message: `${outcome.message}${seedNote(seed)}`, evidence: [], durationMs: recordingMs, shownBy: [{ source: label, seed }] };
    let run = shared.get(key);
    if (run === undefined || run.trace !== outcome.trace) shared.set(key, (run = { source: label, seed, scenario: outcome.scenario, trace: outcome.trace }));
    runs.push(run);
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
