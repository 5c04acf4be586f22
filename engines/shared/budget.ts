import type { Usage } from "../../harness/contract/types.ts";

/** A token count from a usage field: a non-negative integer, 0 when absent or malformed. */
export function tokenCount(value: unknown): number {
  const number = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : Number.NaN;
  return Number.isFinite(number) && number > 0 ? Math.floor(number) : 0;
}

export interface UsageCounts {
  prompt: number;
  completion: number;
  total: number;
}

/**
 * The three counters of a usage object. The optional canonical buckets may be missing and unknown
 * keys may be present (ABC-3); `input_tokens`/`output_tokens` stand in only when the OpenAI names are absent.
 */
export function readUsage(usage: Usage | null | undefined): UsageCounts {
  if (usage === null || typeof usage !== "object") return { prompt: 0, completion: 0, total: 0 };
  const prompt = tokenCount(usage.prompt_tokens ?? usage.input_tokens);
  const completion = tokenCount(usage.completion_tokens ?? usage.output_tokens);
  const total = usage.total_tokens === undefined ? prompt + completion : tokenCount(usage.total_tokens);
  return { prompt, completion, total };
}

/** Copies a usage object's three counters onto the engine's last_* attributes (ABC-2); returns them. */
export function recordUsage(
  engine: { last_prompt_tokens: number; last_completion_tokens: number; last_total_tokens: number },
  usage: Usage | null | undefined,
): UsageCounts {
  const counts = readUsage(usage);
  engine.last_prompt_tokens = counts.prompt;
  engine.last_completion_tokens = counts.completion;
  engine.last_total_tokens = counts.total;
  return counts;
}

/** The trigger for a context length: a positive integer no larger than the window once the window is known (ABC-4). */
export function thresholdFor(contextLength: number, percent: number): number {
  const length = tokenCount(contextLength);
  if (length === 0) return 0;
  const fraction = Number.isFinite(percent) && percent > 0 ? Math.min(1, percent) : 0.75;
  return Math.max(1, Math.min(length, Math.floor(length * fraction)));
}

/** The prompt size `should_compress` judges: the argument when it is a usable number, else the last reported one. */
export function promptTokensArg(argument: unknown, last: number): number {
  return typeof argument === "number" && Number.isFinite(argument) ? argument : last;
}
