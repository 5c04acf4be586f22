import type { CompressInfo } from "../../harness/contract/types.ts";

/** Ineffective passes in a row that block automatic compaction. */
export const BLOCK_AFTER = 2;

/**
 * Stops compaction from thrashing. A pass is ineffective when the prompt that follows it is still at
 * or above the threshold: judged at once when the pass's own output is already over, otherwise on
 * the next real usage the provider reports. Two in a row block automatic compaction until a pass
 * works again or the session is reset.
 */
export class ThrashGuard {
  #streak = 0;
  #awaitingVerdict = false;
  #lastPrompt = 0;
  #threshold = 0;

  get streak(): number {
    return this.#streak;
  }

  get blocked(): boolean {
    return this.#streak >= BLOCK_AFTER;
  }

  /** After a completed pass: its output estimate against the threshold in force. */
  afterPass(outputTokens: number, threshold: number): void {
    this.#threshold = threshold;
    if (threshold <= 0) {
      this.#awaitingVerdict = false;
      return;
    }
    if (outputTokens >= threshold) {
      this.#record(true, outputTokens);
      this.#awaitingVerdict = false;
    } else this.#awaitingVerdict = true;
  }

  /** On real usage: the first response after a pass gives that pass its verdict. */
  onUsage(promptTokens: number, threshold: number): void {
    if (!this.#awaitingVerdict || threshold <= 0) return;
    this.#awaitingVerdict = false;
    this.#threshold = threshold;
    this.#record(promptTokens >= threshold, promptTokens);
  }

  reset(): void {
    this.#streak = 0;
    this.#awaitingVerdict = false;
    this.#lastPrompt = 0;
  }

  info(): CompressInfo {
    if (!this.blocked) return { blocked: false, reason: null, ineffective_compressions: this.#streak };
    return {
      blocked: true,
      reason: "ineffective",
      ineffective_compressions: this.#streak,
      detail:
        `the last ${this.#streak} compactions left the prompt at ${this.#lastPrompt} tokens, not below the threshold of ${this.#threshold}; ` +
        "automatic compaction is paused until a manual compaction gets below it or the session is reset",
    };
  }

  #record(ineffective: boolean, promptTokens: number): void {
    this.#lastPrompt = promptTokens;
    this.#streak = ineffective ? this.#streak + 1 : 0;
  }
}
