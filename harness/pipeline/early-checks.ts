import { CheckEvaluation, type RunOutcome } from "../conformance/evaluate.ts";
import { sourceKey } from "../conformance/sources.ts";
import type { Check, EvaluatedCheck } from "../conformance/types.ts";
import type { PlannedRun } from "./run.ts";

/**
 * Evaluates the checks whose runs are all settled once a player has nothing left to play, while
 * the others record their last runs: a core is free then, and the checks left at the stage's end
 * are only those of its last runs. Not sooner: a check runs synchronously in this process, and a
 * player that finished a run meanwhile would wait for its frames to be read and its next command
 * sent (THR-2's check held both players idle for its whole length). One check per turn of the
 * event loop, so the players' frames are read between checks.
 */
export class EarlyChecks {
  readonly #evaluation: CheckEvaluation;
  readonly #outcomes = new Map<string, RunOutcome>();
  readonly #ready: number[] = [];
  #scheduled: NodeJS.Immediate | null = null;
  #released = false;

  constructor(checks: readonly Check[], options: { seeds: readonly number[]; withScenarios: boolean }) {
    this.#evaluation = new CheckEvaluation(checks, options);
  }

  /** The run stage's `onRun`: the run's outcome is final; `waiting`: runs no player has taken yet. */
  settled(run: PlannedRun, outcome: RunOutcome, waiting: number): void {
    const key = sourceKey(run.source);
    this.#outcomes.set(key, outcome);
    this.#ready.push(...this.#evaluation.settled(key));
    if (waiting === 0) this.#released = true;
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
    if (!this.#released || this.#scheduled !== null || this.#ready.length === 0) return;
    this.#scheduled = setImmediate(() => {
      this.#scheduled = null;
      const index = this.#ready.shift();
      if (index !== undefined) this.#evaluation.evaluate(index, this.#outcomes);
      this.#schedule();
    });
  }
}
