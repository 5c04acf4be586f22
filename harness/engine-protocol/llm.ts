import type { LlmAnswer, LlmHandler } from "./family.ts";
import type { LlmCallParams, LlmFailureKind } from "./messages.ts";

/** What a summarizer needs to answer an engine's `call_llm` (engines/shared's Summarizer fits). */
export interface SummarizerLike {
  summarize(request: { messages: ReadonlyArray<{ role: string; content?: unknown }>; budgetTokens: number }): string | Promise<string>;
}

const DEFAULT_BUDGET_TOKENS = 600;

/**
 * The host's answer to an engine's auxiliary LLM call: the deterministic summarizer over the
 * messages the engine sent (its prompt and transcript), within `max_tokens`.
 */
export function summarizerLlm(summarizer: SummarizerLike): LlmHandler {
  return async (params: LlmCallParams): Promise<LlmAnswer> => {
    const messages = (params.messages ?? []).filter((m): m is { role: string; content?: unknown } => m !== null && typeof m === "object" && typeof (m as { role?: unknown }).role === "string");
    const budget = typeof params.max_tokens === "number" && params.max_tokens > 0 ? Math.min(params.max_tokens, 4000) : DEFAULT_BUDGET_TOKENS;
    return { content: await summarizer.summarize({ messages: messages.filter((m) => m.role !== "system"), budgetTokens: budget }) };
  };
}

/**
 * Scripted failures: the n-th call (from 0) answers as `script[n]` says (a failure kind, or null
 * for the real answer); calls past the script get the real answer.
 */
export function scriptedLlm(script: ReadonlyArray<LlmFailureKind | null>, answer: LlmHandler): LlmHandler {
  let call = 0;
  return (params) => {
    const kind = script[call++] ?? null;
    if (kind === null) return answer(params);
    if (kind === "empty") return { content: "" };
    return { error: { kind, message: FAILURES[kind] } };
  };
}

const FAILURES: Record<Exclude<LlmFailureKind, "empty">, string> = {
  timeout: "the auxiliary model did not answer in time",
  connection: "the auxiliary provider could not be reached",
  auth: "401: the auxiliary provider refused the credentials",
  quota: "429: the auxiliary provider's quota is exhausted",
};
