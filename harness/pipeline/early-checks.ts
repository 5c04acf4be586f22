import { CheckEvaluation, type RunOutcome } from "../conformance/evaluate.ts";
import { sourceKey } from "../conformance/sources.ts";
import type { Check, EvaluatedCheck } from "../conformance/types.ts";
import type { PlannedRun } from "./run.ts";

/**
 * Evaluates each check as soon as every run it reads is settled, while the players record the
 * rest: the parent is otherwise idle during the run stage, and the checks left at its end are
 * only those of its last runs. One check per turn of the event loop, so the players' frames are
 * read (and their next commands sent) between checks.
 */
export class EarlyChecks {
  readonly #evaluation: CheckEvaluation;
  readonly #outcomes = new Map<string, RunOutcome>();
  readonly #ready: number[] = [];
  #scheduled: NodeJS.Immediate | null = null;

  constructor(checks: readonly Check[], options: { seeds: readonly number[]; withScenarios: boolean }) {
    this.#evaluation = new CheckEvaluation(checks, options);
  }

  /** The run stage's `onRun`: the run's outcome is final. */
  settled(run: PlannedRun, outcome: RunOutcome): void {
    const key = sourceKey(run.source);
    this.#outcomes.set(key, outcome);
    this.#ready.push(...this.#evaluation.settled(key));
    this.#schedule();
  }

  /** Every check's result (those not evaluated yet are evaluated now, over the stage's outcomes). */
  results(outcomes: ReadonlyMap<string, RunOutcome>): EvaluatedCheck[] {
    if (this.#scheduled !== null) clearImmediate(this.#scheduled);
    this.#scheduled = null;
    this.#ready.length = 0;
    return this.#evaluation.results(outcomes);
  }

  #schedule(): void {
    if (this.#scheduled !== null || this.#ready.length === 0) return;
    this.#scheduled = setImmediate(() => {
      this.#scheduled = null;
      const index = this.#ready.shift();
      if (index !== undefined) this.#evaluation.evaluate(index, this.#outcomes);
      this.#schedule();
    });
  }
}
