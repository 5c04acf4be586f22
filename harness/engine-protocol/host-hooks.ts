import { NATIVE_CALL, nativeCallFacts, type NativeCallFacts } from "../contract/native.ts";
import type { Message, SelectContextOptions, TurnCompleteInfo, Usage } from "../contract/types.ts";
import { conversationScope } from "../contract/conversation-scope.ts";
import { deriveFromRequest } from "./derived.ts";
import { referable } from "./message-refs.ts";
import type { EngineFamily } from "./family.ts";
import type { RemoteEngine } from "./remote-engine.ts";

/** The caller's ambient context: the family's own notion, or the conversation scope (THR-1's probe sets it). */
export function ambientOf(family: EngineFamily): string | undefined {
  return family.options.ambientContext ? family.options.ambientContext() : conversationScope.getStore();
}

/**
 * The RemoteEngine's `select_context` and `on_turn_complete`: present only on the classes of
 * engines that override them or registered host hooks that fire at those seams (pre_llm_call,
 * post_llm_call), so the host's identity check skips every other engine without a round trip.
 */
export function remoteSelectContext(this: RemoteEngine, original: Message[], options?: SelectContextOptions): Promise<Message[] | null | undefined> {
  if ((this.family.hostHooks["pre_llm_call"] ?? 0) === 0) return selectRemotely(this, original, options);
  // The turn's pre_llm_call context first; the answer carries the engine's own call's facts.
  const holder: { facts: NativeCallFacts | null } = { facts: null };
  const answer = withPreLlmContext(this, original, options).then(async (injected) => {
    if (!this.description.overrides["select_context"]) return injected === original ? null : injected;
    const call = selectRemotely(this, injected, options);
    const selected = await call.finally(() => (holder.facts = nativeCallFacts(call)));
    return selected ?? (injected === original ? selected : injected);
  });
  Object.defineProperty(answer, NATIVE_CALL, { value: holder, enumerable: false });
  return answer;
}

function selectRemotely(engine: RemoteEngine, request_messages: Message[], options?: SelectContextOptions): Promise<Message[] | null | undefined> {
  const refs = engine.family.messageRefs;
  const params: Record<string, unknown> = { request_messages: refs !== null && referable(request_messages) ? refs.encode(request_messages) : request_messages };
  if (options?.conversation_messages !== undefined) params["conversation_messages"] = deriveFromRequest(request_messages, options.conversation_messages) ?? options.conversation_messages;
  if (options?.incoming_message !== undefined) params["incoming_message"] = options.incoming_message;
  if (options?.budget_tokens !== undefined) params["budget_tokens"] = options.budget_tokens;
  return engine.hook("select_context", params, {
    request_messages,
    conversation_messages: options?.conversation_messages,
    incoming_message: options?.incoming_message,
  }) as Promise<Message[] | null | undefined>;
}

/** What pre_llm_call hooks injected for the turn of each engine: fired once per turn, reused on its later requests and retries. */
const turnContext = new WeakMap<RemoteEngine, { turn: string; text: string }>();

/**
 * The host's pre_llm_call plugin hook, fired where upstream fires it: once per turn, before the
 * turn's first request. Upstream appends what the hooks return to the turn's user message for the
 * provider only (never persisted); so does this, on a copy of the request.
 */
async function withPreLlmContext(engine: RemoteEngine, request: Message[], options?: SelectContextOptions): Promise<Message[]> {
  const incoming = options?.incoming_message ?? null;
  const turn = JSON.stringify([incoming?.message_uid ?? null, incoming?.content ?? null]);
  let known = turnContext.get(engine);
  if (known?.turn !== turn) {
    const conversation = options?.conversation_messages ?? request;
    const context = ambientOf(engine.family);
    engine.syncWrites();
    const fired = (await engine.family.request(
      "fire",
      {
        event: "pre_llm_call",
        handle: engine.handle,
        kwargs: {
          session_id: null,
          user_message: typeof incoming?.content === "string" ? incoming.content : null,
          conversation_history: conversation,
          is_first_turn: conversation.filter((message) => message.role === "user").length <= 1,
          model: null,
          platform: "cli",
        },
        ...(context !== undefined ? { context } : {}),
      },
      undefined,
      "pre_llm_call hook",
    )) as { results?: unknown[]; attrs?: Record<string, unknown>; attrTypes?: Record<string, string> };
    engine.refreshAttributes(fired.attrs, fired.attrTypes);
    const parts = (fired.results ?? []).map((result) => (typeof result === "string" ? result : typeof (result as { context?: unknown })?.context === "string" ? (result as { context: string }).context : "")).filter((text) => text !== "");
    known = { turn, text: parts.join("\n\n") };
    turnContext.set(engine, known);
  }
  const at = request.findLastIndex((message) => message.role === "user");
  const target = request[at];
  if (known.text === "" || target === undefined || typeof target.content !== "string") return request;
  const copy = request.slice();
  copy[at] = { ...target, content: `${target.content}\n\n${known.text}` };
  return copy;
}

export async function remoteOnTurnComplete(this: RemoteEngine, messages: Message[], usage: Usage | null, info?: TurnCompleteInfo): Promise<void> {
  const family = this.family;
  if ((family.hostHooks["post_llm_call"] ?? 0) > 0) await firePostLlmCall(this, messages, usage, info);
  if (!this.description.overrides["on_turn_complete"]) return;
  const params: Record<string, unknown> = { messages, usage };
  if (info !== undefined) params["info"] = info;
  await this.hook("on_turn_complete", params, { messages, usage });
}

/** The host's post_llm_call plugin hook, fired at the turn-finalization seam as upstream does (before on_turn_complete). */
async function firePostLlmCall(engine: RemoteEngine, messages: Message[], usage: Usage | null, info?: TurnCompleteInfo): Promise<void> {
  const turnId = typeof info?.turn_id === "string" ? info.turn_id : "";
  const sessionId = turnId.split(":").slice(0, -2).join(":") || null;
  const lastOf = (role: string) => [...messages].reverse().find((message) => message.role === role)?.content ?? null;
  const kwargs = {
    session_id: sessionId,
    conversation_history: messages,
    user_message: lastOf("user"),
    assistant_response: lastOf("assistant"),
    usage,
    platform: "cli",
    model: null,
    conversation_id: null,
  };
  const context = ambientOf(engine.family);
  engine.syncWrites();
  const fired = (await engine.family.request("fire", { event: "post_llm_call", kwargs, handle: engine.handle, ...(context !== undefined ? { context } : {}) }, undefined, "post_llm_call hook")) as {
    attrs?: Record<string, unknown>;
    attrTypes?: Record<string, string>;
  };
  engine.refreshAttributes(fired.attrs, fired.attrTypes);
}
