import type { ContextEngine } from "../../contract/context-engine.ts";
import type { Message } from "../../contract/types.ts";
import type { EngineHook } from "../../trace/events.ts";
import { describeError, type HookOutcome } from "../../trace/recorder.ts";
import type { ProbeContext } from "../types.ts";
import { jsonCopy } from "./conversation.ts";

/** The model probes configure engines with, and its window. */
export const PROBE_MODEL = "probe-model";
export const PROBE_CONTEXT_LENGTH = 8000;

/**
 * Calls one hook through the recorder. `detail` lands on the engine-call event with the answer as
 * `output` (a JSON copy) or `thrown`, and whatever `after` reads once the call returned (e.g.
 * digests of the arguments), so checks read values verbatim and the event is final when recorded.
 */
export async function call<T = unknown>(
  context: ProbeContext,
  engine: ContextEngine,
  hook: EngineHook,
  args: readonly unknown[],
  session: string | null,
  detail: Record<string, unknown>,
  after?: (outcome: HookOutcome) => Record<string, unknown>,
): Promise<HookOutcome<T>> {
  const detailAfter = (outcome: HookOutcome): Record<string, unknown> => ({
    ...(outcome.ok ? { output: safeCopy(outcome.value) } : { thrown: describeError(outcome.error) }),
    ...after?.(outcome),
  });
  return (await context.recorder.callHook<T>(engine, hook, args, { session, detail: { ...detail }, detailAfter })) as HookOutcome<T>;
}

function safeCopy(value: unknown): unknown {
  try {
    return jsonCopy(value);
  } catch {
    return String(value);
  }
}

/** Configures a fresh engine and starts a session, as the host does before the first turn. */
export async function startSession(context: ProbeContext, engine: ContextEngine, session: string): Promise<void> {
  await call(context, engine, "update_model", [{ model: PROBE_MODEL, context_length: PROBE_CONTEXT_LENGTH }], session, { step: "setup" });
  await call(context, engine, "on_session_start", [session, { home: context.home, platform: "cli", model: PROBE_MODEL, context_length: PROBE_CONTEXT_LENGTH }], session, {
    step: "setup",
  });
}

/** compress() with a private copy of the input; the input is recorded verbatim for the checks. */
export async function compressCase(
  context: ProbeContext,
  engine: ContextEngine,
  session: string,
  name: string,
  messages: readonly Message[],
  focusTopic: string | null = null,
  extra: Record<string, unknown> = {},
) {
  const input = jsonCopy([...messages]);
  const threshold = engine.threshold_tokens;
  const args: unknown[] = focusTopic === null ? [jsonCopy(input)] : [jsonCopy(input), null, focusTopic];
  return call<Message[]>(context, engine, "compress", args, session, { case: name, input, focus_topic: focusTopic, threshold_tokens: threshold, ...extra });
}
