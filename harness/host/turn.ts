import { overridesHook } from "../contract/context-engine.ts";
import type { Message, MessageContent, TurnCompleteInfo, Usage } from "../contract/types.ts";
import type { ProviderReply } from "../provider/simulated-provider.ts";
import { canonicalJson } from "../trace/canonical-json.ts";
import { isThenable, readEngineField } from "../trace/recorder.ts";
import type { ScenarioTurn } from "../../scenarios/format.ts";
import { assembledByHostAlone, assembleRequest, type AssembledRequest } from "./assemble.ts";
import { cloneMessages, cloneValue } from "./clone.ts";
import { runCompactionPass } from "./compaction.ts";
import { deepEqual } from "./deep-equal.ts";
import { askShouldCompress, madeProgress, MAX_TURN_PASSES, postToolGate, preApiGate, turnPass } from "./pressure-gates.ts";
import { historyTokensRough } from "./history-tokens.ts";
import { notifyHook } from "./lifecycle.ts";
import { referenceViewsOf } from "./reference-views.ts";
import type { HostRuntime, SessionRuntime } from "./runtime.ts";
import { answerToolCall, warn } from "./tools.ts";

/** Retries of one provider call after transient errors before the turn fails. */
export const MAX_TRANSIENT_RETRIES = 3;
/** Overflow compactions one provider call may trigger before the turn gives up. */
export const MAX_OVERFLOW_PASSES = 2;

export type TurnExit =
  | "completed"
  | "interrupted"
  | "content_policy_blocked"
  | "provider_terminal_failure"
  | "provider_retries_exhausted"
  | "context_overflow"
  | "context_compression_timeout";

/** Exits that return early without the finalization seam, so without on_turn_complete (OTC-3). */
const EARLY_RETURNS: ReadonlySet<TurnExit> = new Set(["content_policy_blocked", "provider_terminal_failure", "provider_retries_exhausted"]);

interface TurnState {
  readonly turn: number;
  readonly script: ScenarioTurn;
  apiCalls: number;
  usage: Usage | null;
}

/**
 * One turn: user message → preflight → turn-start flush → (request assembly → provider →
 * update_from_response → tool calls)* → finalize → on_turn_complete.
 *
 * The preflight runs before the flush, as upstream's does, so a preflight compress() sees this
 * turn's user message without a uid yet (CMP-9, UID-2); the flush then stamps the same object.
 */
export async function playTurn(runtime: HostRuntime, session: SessionRuntime, turn: number, script: ScenarioTurn): Promise<void> {
  const user: Message = { role: "user", content: cloneValue(script.user) as MessageContent };
  if (script.userMessageUid !== undefined) user.message_uid = script.userMessageUid;
  const withUser = [...session.history, user];
  session.history = withUser;
  session.turnPasses = 0;
  session.progressBlocked = false;

  const preflightExit = await preflight(runtime, session);
  turnStartFlush(runtime, session, user, session.history !== withUser);
  const state: TurnState = { turn, script, apiCalls: 0, usage: null };
  const exit = preflightExit ?? (await toolLoop(runtime, session, state));
  await finalize(runtime, session, state, exit);
}

/**
 * Persist this turn's user message. When a preflight pass committed, its output was written
 * instead of the snapshot: the message is already stored if the engine kept it (as the last user
 * message), and is appended after the compacted list if the engine dropped it.
 */
function turnStartFlush(runtime: HostRuntime, session: SessionRuntime, user: Message, committed: boolean): void {
  if (committed) {
    const kept = session.history[lastUserIndex(session.history)];
    if (kept !== undefined && canonicalJson(kept.content ?? null) === canonicalJson(user.content ?? null)) return;
    session.history = [...session.history, user];
  }
  runtime.store.append(session.storeId, [user]);
}

/** should_compress on the estimate (up to the turn's three passes while they make progress); otherwise one engine-driven pass. */
async function preflight(runtime: HostRuntime, session: SessionRuntime): Promise<TurnExit | null> {
  const { engine, recorder } = runtime;
  let tokens = historyTokensRough(session.history);
  if (await askShouldCompress(runtime, session, tokens, "preflight")) {
    while (session.turnPasses < MAX_TURN_PASSES) {
      const result = await turnPass(runtime, session, { trigger: "preflight", currentTokens: tokens });
      if (result.outcome === "timeout") return "context_compression_timeout";
      if (!madeProgress(result)) break;
      tokens = result.tokensAfter ?? tokens;
      if (!(await askShouldCompress(runtime, session, tokens, "preflight"))) break;
    }
    return null;
  }
  const threshold = readEngineField(engine, "threshold_tokens");
  if (threshold > 0 && tokens >= threshold) {
    const info = recorder.callHook(engine, "should_compress_info", [], { session: session.id });
    const answer = isThenable(info) ? await info : info;
    const blocked = answer.ok && answer.value !== null && typeof answer.value === "object" && (answer.value as { blocked?: unknown }).blocked === true;
    if (blocked) warn(runtime, `Over the compaction threshold but blocked: ${String((answer.value as { reason?: unknown }).reason)}`, null, session.id);
  }
  const maintenance = recorder.callHook(engine, "should_compress_preflight", [cloneMessages(session.history)], {
    session: session.id,
    digestArgs: [session.history],
  });
  const answer = isThenable(maintenance) ? await maintenance : maintenance;
  if (answer.ok && answer.value === true) {
    // One maintenance pass; a no-op here does not shut the later gates (upstream's blocker stays unarmed).
    session.turnPasses++;
    const result = await runCompactionPass(runtime, session, { trigger: "engine-preflight", currentTokens: tokens });
    if (result.outcome === "timeout") return "context_compression_timeout";
  }
  return null;
}

async function toolLoop(runtime: HostRuntime, session: SessionRuntime, state: TurnState): Promise<TurnExit> {
  const steps = state.script.steps;
  for (let index = 0; index < steps.length; index++) {
    const step = steps[index]!;
    let attempt = 0;
    let overflowPasses = 0;
    let reply: ProviderReply;
    for (;;) {
      const pending = assemble(runtime, session);
      const assembled = isThenable(pending) ? await pending : pending;
      const gate = await preApiGate(runtime, session, assembled);
      if (gate === "timeout") return "context_compression_timeout";
      if (gate === "compacted") continue; // assemble again: the history changed under the request
      const sent = sentMessages(assembled);
      reply = runtime.provider.respond({ session: session.id, messages: sent, cacheBreakpoints: assembled.cacheBreakpoints, step, attempt });
      state.apiCalls++;
      recordExchange(runtime, session, state, assembled, sent, reply, attempt, step.fault?.kind === "slow" ? "slow" : null);
      if (reply.kind === "transient") {
        attempt++;
        if (attempt > MAX_TRANSIENT_RETRIES) return "provider_retries_exhausted";
        continue;
      }
      if (reply.kind === "overflow") {
        attempt++;
        if (overflowPasses >= MAX_OVERFLOW_PASSES) return "context_overflow";
        overflowPasses++;
        const result = await runCompactionPass(runtime, session, { trigger: "overflow", bypassCooldown: true, currentTokens: reply.promptTokens });
        if (result.outcome === "timeout") return "context_compression_timeout";
        if (result.outcome !== "committed" && reply.promptTokens > runtime.provider.contextLength) return "context_overflow";
        continue;
      }
      break;
    }
    if (reply.kind === "content-policy") return "content_policy_blocked";
    if (reply.kind === "terminal") return "provider_terminal_failure";
    if (reply.kind === "interrupted") {
      state.usage = null;
      return "interrupted";
    }
    if (reply.kind !== "ok") return "provider_terminal_failure";
    runtime.clockMs += reply.simulatedMs;
    state.usage = reply.usage;
    const updated = runtime.recorder.callHook(runtime.engine, "update_from_response", [cloneValue(reply.usage)], { session: session.id });
    if (isThenable(updated)) await updated;
    session.awaitingRealUsage = false;

    // An imported scenario replays the recorded identity: uids the store then keeps.
    if (step.messageUid !== undefined) reply.message.message_uid = step.messageUid;
    if (step.toolCallUids !== undefined) reply.message._tool_call_uids = cloneValue(step.toolCallUids) as typeof step.toolCallUids;
    const batch: Message[] = [reply.message];
    session.history = [...session.history, reply.message];
    for (const call of step.toolCalls ?? []) {
      if (call.resultMissing === true) continue;
      const result = await answerToolCall(runtime, session, call, state.turn);
      if (call.resultMessageUid !== undefined) result.message_uid = call.resultMessageUid;
      if (call.resultToolCallUid !== undefined) result._tool_call_uid = call.resultToolCallUid;
      batch.push(result);
      session.history = [...session.history, result];
    }
    runtime.store.append(session.storeId, batch);
    if ((step.toolCalls ?? []).length === 0) return "completed";
    const afterTools = await postToolGate(runtime, session, state.usage?.prompt_tokens ?? null);
    if (afterTools === "timeout") return "context_compression_timeout";
  }
  return "completed";
}

/** The incoming message is this turn's user message: the last user message, also after a compaction rewrote the history. */
function assemble(runtime: HostRuntime, session: SessionRuntime): AssembledRequest | Promise<AssembledRequest> {
  return assembleRequest(session.history, runtime.engine, {
    session: session.id,
    incomingIndex: lastUserIndex(session.history),
    recorder: runtime.recorder,
    views: referenceViewsOf(session),
  });
}

function lastUserIndex(history: readonly Message[]): number {
  for (let index = history.length - 1; index >= 0; index--) if (history[index]!.role === "user") return index;
  return -1;
}

/**
 * The messages a request sends, as the provider and the trace keep them: nobody may change them
 * afterwards. The host's own wire copies of an unselected request are that already; whatever an
 * engine's selection involved (its answer, or the request copies it was handed) the engine can
 * still reach and change later, so those are copied once.
 */
function sentMessages(assembled: AssembledRequest): Message[] {
  return assembledByHostAlone(assembled) ? assembled.messages : cloneMessages(assembled.messages);
}

function recordExchange(
  runtime: HostRuntime,
  session: SessionRuntime,
  state: TurnState,
  assembled: AssembledRequest,
  sent: Message[],
  reply: ProviderReply,
  attempt: number,
  slow: "slow" | null,
): void {
  if (assembled.warning !== null) warn(runtime, assembled.warning, "SEL-2", session.id);
  runtime.recorder.record({
    type: "request",
    session: session.id,
    turn: state.turn,
    attempt,
    messages: sent,
    tools: runtime.offeredTools,
    selection: assembled.selection,
    cacheBreakpoints: assembled.cacheBreakpoints,
    promptTokens: reply.promptTokens,
    cacheReadTokens: reply.cacheReadTokens,
    cacheWriteTokens: reply.cacheWriteTokens,
  });
  runtime.recorder.record({
    type: "response",
    session: session.id,
    turn: state.turn,
    attempt,
    usage: reply.kind === "ok" ? reply.usage : null,
    fault: reply.kind === "ok" ? slow : reply.kind,
    toolCalls: reply.kind === "ok" ? (reply.message.tool_calls ?? []).map((call) => call.function.name) : [],
  });
}

/** The finalization seam: on_turn_complete with copies, the turn's usage or null, and the turn metadata (OTC-1). */
async function finalize(runtime: HostRuntime, session: SessionRuntime, state: TurnState, exit: TurnExit): Promise<void> {
  let called = false;
  if (!EARLY_RETURNS.has(exit) && overridesHook(runtime.engine, "on_turn_complete")) {
    const taskId = state.script.taskId ?? `task-${runtime.mintId()}`;
    const info: TurnCompleteInfo = {
      turn_id: `${session.storeId}:${taskId}:${runtime.mintId().slice(0, 8)}`,
      task_id: taskId,
      api_call_count: state.apiCalls,
      interrupted: exit === "interrupted",
      failed: exit !== "completed" && exit !== "interrupted",
      turn_exit_reason: exit,
    };
    const usage = state.usage === null ? null : cloneValue(state.usage);
    const copies = cloneMessages(session.history);
    // OTC-4 judges this: did the engine change the copies it was shown?
    const modified = () => ({ usage_null: usage === null, modified: !deepEqual(copies, session.history) });
    await notifyHook(runtime, session, "on_turn_complete", [copies, usage, info], undefined, [session.history, usage, info], modified);
    called = true;
  }
  runtime.recorder.record({
    type: "turn-end",
    session: session.id,
    turn: state.turn,
    exitReason: exit,
    usage: state.usage,
    apiCalls: state.apiCalls,
    onTurnCompleteCalled: called,
  });
}
