import type { MaybePromise, Message } from "../../harness/contract/types.ts";

/** What a summarizer is asked: the messages to condense, and how. */
export interface SummaryRequest {
  messages: readonly Message[];
  /** The summary of an earlier pass, to update rather than stack a new one on. */
  previousSummary?: string | null;
  /**
   * Where the previous summary sits in time: the index in `messages` of the first message newer
   * than it. Default 0, every message is newer (messages before it were, e.g., a protected head).
   */
  previousSummaryAt?: number;
  /** The topic the user asked to keep (manual `/compress <focus>`). */
  focusTopic?: string | null;
  /** The summary's size budget in (rough) tokens. */
  budgetTokens: number;
  signal?: AbortSignal;
}

/**
 * Turns messages into a summary. The bundled implementations are deterministic and need no
 * network; a real model can be plugged in behind the same interface.
 */
export interface Summarizer {
  summarize(request: SummaryRequest): MaybePromise<string>;
}
