import { estimateTokensRough } from "../contract/tokens.ts";
import { historyTokensRough } from "./history-tokens.ts";
import type { Message } from "../contract/types.ts";
import { assembledByHostAlone, type AssembledRequest } from "./assemble.ts";
import { isThenable } from "../trace/recorder.ts";
import { runCompactionPass, type PassRequest, type PassResult } from "./compaction.ts";
import type { HostRuntime, SessionRuntime } from "./runtime.ts";

/** Compaction passes one turn may run across its gates (upstream's compression.max_attempts). */
export const MAX_TURN_PASSES = 3;

/** A pass that removes less than this share of the tokens counts as no progress (upstream's 5 %). */
const PROGRESS_RATIO = 0.95;

export type GateOutcome = "proceed" | "compacted" | "timeout";

/** Runs one pass of this turn, counting it against the turn's budget and shutting the gates if it made no progress. */
export async function turnPass(runtime: HostRuntime, session: SessionRuntime, request: PassRequest): Promise<PassResult> {
  session.turnPasses++;
  const result = await runCompactionPass(runtime, session, request);
  if (!madeProgress(result)) session.progressBlocked = true;
  return result;
}

export function madeProgress(result: PassResult): boolean {
  return result.outcome === "committed" && result.tokensAfter !== null && result.tokensAfter <= result.tokensBefore * PROGRESS_RATIO;
}

/**
 * The pre-API gate, once per provider call after the request is assembled: a token-only
 * should_compress on the request's own size, without should_compress_preflight. A committed pass
 * means the request must be assembled again (select_context runs again on the new history).
 * Shut while real usage is awaited after a commit, when the turn's passes are spent, and after a
 * pass that made no progress — so an engine that keeps saying yes and returning no-ops is asked
 * once, not in a loop (the field's #64382).
 */
export async function preApiGate(runtime: HostRuntime, session: SessionRuntime, request: AssembledRequest): Promise<GateOutcome> {
  if (session.history.length <= 1 || !gatesOpen(session)) return "proceed";
  return compactIfAsked(runtime, session, requestTokensRough(request, session.history), "pre-api");
}

/**
 * The rough estimate of an assembled request. One that no engine selected and no sanitizer
 * repaired holds the history's wire copies one for one, and a wire copy estimates as its message
 * does (the estimate leaves persistence-only fields out), so it is the history's estimate, which
 * remembers each persisted message's share.
 */
function requestTokensRough(request: AssembledRequest, history: readonly Message[]): number {
  if (assembledByHostAlone(request) && !request.repaired && request.messages.length === history.length) return historyTokensRough(history);
  return estimateTokensRough(request.messages);
}

/**
 * After a step's tool results are in: should_compress on the last real prompt size (the figure the
 * provider reported for the request that asked for these tools), or the history's estimate when
 * there is none. Same gates as the pre-API check.
 */
export async function postToolGate(runtime: HostRuntime, session: SessionRuntime, lastPromptTokens: number | null): Promise<GateOutcome> {
  if (!gatesOpen(session)) return "proceed";
  const pressure = lastPromptTokens !== null && lastPromptTokens > 0 ? lastPromptTokens : historyTokensRough(session.history);
  return compactIfAsked(runtime, session, pressure, "post-tool");
}

function gatesOpen(session: SessionRuntime): boolean {
  return !session.awaitingRealUsage && !session.progressBlocked && session.turnPasses < MAX_TURN_PASSES;
}

/** should_compress(tokens), recorded with the site that asked; true only for an answer of `true`. */
export async function askShouldCompress(runtime: HostRuntime, session: SessionRuntime, tokens: number, site: "preflight" | "pre-api" | "post-tool"): Promise<boolean> {
  const asked = runtime.recorder.callHook(runtime.engine, "should_compress", [tokens], { session: session.id, detail: { prompt_tokens: tokens, site } });
  const answer = isThenable(asked) ? await asked : asked;
  return answer.ok && answer.value === true;
}

async function compactIfAsked(runtime: HostRuntime, session: SessionRuntime, pressure: number, site: "pre-api" | "post-tool"): Promise<GateOutcome> {
  if (!(await askShouldCompress(runtime, session, pressure, site))) return "proceed";
  const result = await turnPass(runtime, session, { trigger: site, currentTokens: pressure });
  if (result.outcome === "timeout") return "timeout";
  return result.outcome === "committed" ? "compacted" : "proceed";
}
