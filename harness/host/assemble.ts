import { overridesHook, type ContextEngine } from "../contract/context-engine.ts";
import { hasPersistenceFields, stripAll, stripPersistenceFields } from "../contract/persistence-fields.ts";
import type { Message, SelectContextOptions } from "../contract/types.ts";
import type { SelectionOutcome } from "../trace/events.ts";
import { answerForDigest, wireForDigest } from "./wire-twins.ts";
import { requestCopies } from "./request-copies.ts";
import { isThenable, readEngineField, type HookOutcome, type TraceRecorder } from "../trace/recorder.ts";
import { planCacheBreakpoints } from "./cache-plan.ts";
import { cloneMessage, cloneMessages } from "./clone.ts";
import type { ReferenceViews } from "./reference-views.ts";
import { sanitizeRequest } from "./sanitize.ts";
import { deepEqual } from "./deep-equal.ts";
import { validateSequence } from "../contract/validate.ts";
import { unsendableProblem } from "./sendable.ts";

export interface AssemblyState {
  session: string | null;
  /** Index in the transcript of this turn's user message, or -1 when there is none. */
  incomingIndex: number;
  /** Records the select_context call when given; the overhead benchmark omits it. */
  recorder?: TraceRecorder | undefined;
  /** The conversation's reusable private copies for select_context; without it every request clones the history. */
  views?: ReferenceViews | undefined;
}

export interface AssembledRequest {
  /** The messages exactly as they go to the provider. */
  messages: Message[];
  selection: SelectionOutcome;
  cacheBreakpoints: number[];
  /** Why a selection fell open (SEL-2), or null. */
  warning: string | null;
  /** The sanitizers changed the list (a repaired tool pairing, a dropped role, merged user messages). */
  repaired: boolean;
}

/** No engine's select_context was called: the messages are the host's own wire copies of the history, which no engine ever held. */
export function assembledByHostAlone(request: AssembledRequest): boolean {
  return request.selection === "skipped-inherited" || request.selection === "no-engine";
}

export const SELECT_CONTEXT_FAILED = "Context engine select_context hook failed; using unmodified request messages";
export const SELECT_CONTEXT_INVALID =
  "Context engine select_context returned an invalid value (not a non-empty list of objects); ignoring";
export const SELECT_CONTEXT_UNSENDABLE = "Context engine select_context returned messages a provider would refuse; using unmodified request messages";

/**
 * Request assembly, in upstream's load-bearing order (SEL-3): wire copies of the transcript (the
 * engine's own, down to nested values, when it selects: SEL-4) →
 * select_context → sanitizers → strip again (a selection may hand back history copies, WIRE-1) →
 * cache-control plan. An engine that inherits select_context is never called (SEL-1), and that
 * path is synchronous: no copies for the hook, no closure, no Promise.
 */
export function assembleRequest(
  transcript: readonly Message[],
  engine: ContextEngine | null,
  state: AssemblyState,
): AssembledRequest | Promise<AssembledRequest> {
  if (engine === null) return finish(stripAll(transcript), "no-engine", null);
  if (!overridesHook(engine, "select_context")) return finish(stripAll(transcript), "skipped-inherited", null);
  return callSelectContext(engine, requestCopies(transcript), transcript, state);
}

function callSelectContext(engine: ContextEngine, wire: Message[], transcript: readonly Message[], state: AssemblyState): AssembledRequest | Promise<AssembledRequest> {
  const incoming = state.incomingIndex >= 0 ? transcript[state.incomingIndex] : undefined;
  const views = state.views;
  const conversation = views === undefined ? cloneMessages(transcript) : views.conversation(transcript);
  const incomingCopy = incoming === undefined ? null : views === undefined ? cloneMessage(incoming) : views.incoming(incoming);
  const options = { conversation_messages: conversation, incoming_message: incomingCopy, budget_tokens: readEngineField(engine, "context_length") || 0 };
  if (state.recorder !== undefined) {
    // The copies equal the transcript (unless the engine edited its own copy in an earlier request,
    // SEL-6); the trace digests the host's history itself, reusing its cached JSON, and the wire
    // copies through their twins while the engine left them as they were.
    // Args and answer are digested together once the call has returned, so one look at the copies serves both.
    let digested: readonly unknown[] | undefined;
    const wireDigest = () => (digested ??= wireForDigest(wire, transcript));
    const digestArgs = () => [wireDigest(), { ...options, conversation_messages: transcript, incoming_message: incoming ?? null }];
    const digestResult = (value: unknown) => answerForDigest(value, wire, wireDigest());
    let decided: AssembledRequest | undefined;
    const detailAfter = (outcome: HookOutcome): Record<string, unknown> => {
      decided = decide(wire, outcome);
      // What SEL-6, SEL-7 and SEL-9 judge: reference copies the engine changed, a refused selection, what the sanitizers repaired.
      const mutated = [
        ...(deepEqual(conversation, transcript) ? [] : ["conversation_messages"]),
        ...(incoming === undefined || deepEqual(incomingCopy, incoming) ? [] : ["incoming_message"]),
      ];
      const detail: Record<string, unknown> = { mutated, selection: decided.selection };
      if (decided.warning !== null && decided.selection === "fail-open-invalid") detail["refused"] = decided.warning;
      if (decided.selection === "replaced" && decided.repaired) detail["repairs"] = repairsOf(outcome, wire);
      return detail;
    };
    const recorded = state.recorder.callHook(engine, "select_context", [wire, options], { session: state.session, digestArgs, digestResult, detailAfter });
    return isThenable(recorded) ? recorded.then(() => decided!) : decided!;
  }
  const outcome = invokeSelectContext(engine, wire, options);
  return isThenable(outcome) ? outcome.then((settled) => decide(wire, settled)) : decide(wire, outcome);
}

/** What the sanitizers had to repair in a replacing selection that the request itself did not need (SEL-9): the first few findings. */
function repairsOf(outcome: HookOutcome, request: readonly Message[]): string[] {
  if (!outcome.ok || !Array.isArray(outcome.value)) return [];
  const key = (finding: { kind: string; callId: string | null }) => `${finding.kind}:${finding.callId ?? ""}`;
  const had = new Set(validateSequence(request).map(key));
  return validateSequence(outcome.value)
    .filter((finding) => finding.severity === "error" && !had.has(key(finding)))
    .slice(0, 3)
    .map((finding) => finding.detail);
}

function invokeSelectContext(engine: ContextEngine, wire: Message[], options: SelectContextOptions): HookOutcome | Promise<HookOutcome> {
  try {
    const value = engine.select_context(wire, options);
    if (!isThenable(value)) return { ok: true, value };
    return Promise.resolve(value).then(
      (resolved): HookOutcome => ({ ok: true, value: resolved }),
      (error: unknown): HookOutcome => ({ ok: false, error }),
    );
  } catch (error) {
    return { ok: false, error };
  }
}

/** The fail-open table (SEL-2): only a non-empty list of objects replaces the request. */
function decide(wire: Message[], outcome: HookOutcome): AssembledRequest {
  if (!outcome.ok) return finish(wire, "fail-open-error", SELECT_CONTEXT_FAILED);
  const value = outcome.value;
  if (value === null || value === undefined) return finish(wire, "none", null);
  if (!isMessageList(value)) return finish(wire, "fail-open-invalid", SELECT_CONTEXT_INVALID);
  const unsendable = unsendableProblem(value);
  if (unsendable !== null) return finish(wire, "fail-open-invalid", `${SELECT_CONTEXT_UNSENDABLE}: ${unsendable}`);
  return finish(value, "replaced", null);
}

export function isMessageList(value: unknown): value is Message[] {
  if (!Array.isArray(value) || value.length === 0) return false;
  for (const item of value) if (item === null || typeof item !== "object" || Array.isArray(item)) return false;
  return true;
}

function finish(messages: Message[], selection: SelectionOutcome, warning: string | null): AssembledRequest {
  const sanitized = sanitizeRequest(messages);
  const wire = stripAgain(sanitized);
  return { messages: wire, selection, cacheBreakpoints: planCacheBreakpoints(wire), warning, repaired: sanitized !== messages };
}

/** A selection may return history copies: strip persistence-only fields again, copying only those messages. */
function stripAgain(messages: Message[]): Message[] {
  let out: Message[] | null = null;
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    if (!hasPersistenceFields(message)) continue;
    out ??= messages.slice();
    out[index] = stripPersistenceFields(message);
  }
  return out ?? messages;
}
