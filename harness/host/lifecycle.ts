import type { Message } from "../contract/types.ts";
import type { EngineHook } from "../trace/events.ts";
import { describeError, isThenable, readEngineField, type CallContext, type HookOutcome } from "../trace/recorder.ts";
import { cloneMessages } from "./clone.ts";
import type { ScenarioSession } from "../../scenarios/format.ts";
import type { HostRuntime, SessionRuntime } from "./runtime.ts";

export const SANDBOX_MARKER = "<home>";

/** Call a lifecycle hook; an exception is recorded as a warning and swallowed, as upstream. */
export async function notifyHook(
  runtime: HostRuntime,
  session: SessionRuntime | null,
  hook: EngineHook,
  args: readonly unknown[],
  detail?: Record<string, unknown>,
  digestArgs?: readonly unknown[],
  detailAfter?: CallContext["detailAfter"],
): Promise<HookOutcome> {
  const context: CallContext = { session: session?.id ?? null };
  if (detail !== undefined) context.detail = detail;
  if (digestArgs !== undefined) context.digestArgs = digestArgs;
  if (detailAfter !== undefined) context.detailAfter = detailAfter;
  const pending = runtime.recorder.callHook(runtime.engine, hook, args, context);
  const outcome = isThenable(pending) ? await pending : pending;
  if (!outcome.ok) {
    runtime.recorder.record({
      type: "warning",
      session: session?.id ?? null,
      message: `Context engine ${hook} hook failed: ${describeError(outcome.error)}`,
      rule: null,
    });
  }
  return outcome;
}

/** `on_session_start(session_id, {home, platform, model, context_length, conversation_id, …})`. */
export async function startSession(runtime: HostRuntime, session: SessionRuntime, extra: Record<string, unknown> = {}): Promise<void> {
  session.open = true;
  const info = {
    home: runtime.settings.home,
    platform: session.platform,
    model: runtime.scenario.model,
    context_length: readEngineField(runtime.engine, "context_length"),
    conversation_id: null,
    ...extra,
  };
  // The sandbox path differs per run: digest a fixed marker so a seed still gives the same trace.
  await notifyHook(runtime, session, "on_session_start", [session.storeId, info], undefined, [session.storeId, { ...info, home: SANDBOX_MARKER }]);
}

/** `on_session_end(session_id, messages)` at a session boundary only (LIFE-1). */
export async function endSession(runtime: HostRuntime, session: SessionRuntime): Promise<void> {
  if (!session.open) return;
  session.open = false;
  await notifyHook(runtime, session, "on_session_end", [session.storeId, cloneMessages(session.history)], undefined, [session.storeId, session.history]);
}

/** A fresh runtime for a conversation whose rows already exist in the store (`history`, when the caller has just restored them). */
export function restoredSession(
  runtime: HostRuntime,
  id: string,
  platform: string,
  script: ScenarioSession | null = null,
  history: Message[] = runtime.store.restore(id),
): SessionRuntime {
  return {
    id,
    storeId: id,
    script,
    platform: script?.platform ?? platform,
    history,
    open: false,
    compacting: false,
    timeoutNextCompaction: false,
    generation: 0,
    awaitingRealUsage: false,
    turnPasses: 0,
    progressBlocked: false,
  };
}

export function systemMessage(text: string): Message {
  return { role: "system", content: text };
}
