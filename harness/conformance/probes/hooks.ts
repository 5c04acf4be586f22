import { ContextEngine, ENGINE_BRAND, type OptionalHook } from "../../contract/context-engine.ts";
import type { Message } from "../../contract/types.ts";
import { digestValue } from "../../trace/canonical-json.ts";
import type { Probe } from "../types.ts";
import { call, startSession } from "./call.ts";
import { buildConversation, jsonCopy } from "./conversation.ts";

/** SEL-1's identity test, tolerant of an object without the brand (an ABC-1 failure of its own). */
export function implementsHook(engine: ContextEngine, hook: OptionalHook): boolean {
  const method = (engine as unknown as Record<string, unknown>)[hook];
  if (typeof method !== "function") return false;
  const base = (engine as unknown as Record<symbol, unknown>)[ENGINE_BRAND];
  const prototype = typeof base === "function" ? (base as typeof ContextEngine).prototype : ContextEngine.prototype;
  return method !== prototype[hook];
}

const digest = (value: unknown) => digestValue(value).digest;

/** SEL-6..9, CACHE-2: direct select_context calls over a growing conversation, then repeats. */
export const selectionProbe: Probe = {
  id: "selection",
  description: "Calls select_context on a conversation growing turn by turn, then twice more with nothing changed; inputs are digested before and after.",
  async run(engine, context) {
    if (!implementsHook(engine, "select_context")) return;
    const session = "selection";
    await startSession(context, engine, session);
    const conversation = buildConversation(context.seed + 20, { turns: 10, words: 30, toolEvery: 2, batch: 2, resultChars: 200 }, "selection");
    const turnStarts = conversation.flatMap((message, index) => (message.role === "user" ? [index] : []));
    const select = async (name: string, end: number) => {
      const request = jsonCopy(conversation.slice(0, end));
      const conversationMessages = jsonCopy(request);
      const incoming = jsonCopy(request[request.length - 1] as Message);
      const before = { request: digest(request), conversation: digest(conversationMessages), incoming: digest(incoming) };
      const options = { conversation_messages: conversationMessages, incoming_message: incoming, budget_tokens: 4000 };
      const outcome = await call<Message[] | null>(context, engine, "select_context", [request, options], session, { case: name, request: jsonCopy(request), before });
      const after = { request: digest(request), conversation: digest(conversationMessages), incoming: digest(incoming) };
      const last = context.recorder.events[context.recorder.size - 1];
      if (last?.type === "engine-call" && last.detail) last.detail["after"] = after;
      return outcome;
    };
    const growFrom = Math.max(0, turnStarts.length - 5);
    for (let turn = growFrom; turn < turnStarts.length; turn++) await select(`grow-${turn}`, turnStarts[turn]! + 1);
    const end = turnStarts[turnStarts.length - 1]! + 1;
    await select("repeat-1", end);
    await select("repeat-2", end);
  },
};

/** OTC-4, OTC-5: on_turn_complete with a digested transcript, and with a null usage. */
export const turnCompleteProbe: Probe = {
  id: "turn-complete",
  description: "Calls on_turn_complete after a completed turn and after an interrupted one (usage null), digesting the transcript before and after.",
  async run(engine, context) {
    if (!implementsHook(engine, "on_turn_complete")) return;
    const session = "turn-complete";
    await startSession(context, engine, session);
    const transcript = buildConversation(context.seed + 30, { turns: 6, words: 30, toolEvery: 2, batch: 2 }, "otc");
    const cases: Array<{ name: string; usage: unknown; interrupted: boolean }> = [
      { name: "completed", usage: { prompt_tokens: 900, completion_tokens: 40, total_tokens: 940 }, interrupted: false },
      { name: "interrupted", usage: null, interrupted: true },
    ];
    for (const [index, item] of cases.entries()) {
      const messages = jsonCopy(transcript);
      const before = digest(messages);
      const info = { turn_id: `turn-${index}`, task_id: "task-0", api_call_count: 1, interrupted: item.interrupted, failed: false, turn_exit_reason: item.interrupted ? "interrupted" : "completed" };
      await call(context, engine, "on_turn_complete", [messages, item.usage, info], session, { case: item.name, before, usage: item.usage });
      const last = context.recorder.events[context.recorder.size - 1];
      if (last?.type === "engine-call" && last.detail) last.detail["after"] = digest(messages);
    }
  },
};

/** TOOL-1, TOOL-2: the tool schemas, then calls with empty, ill-typed and unparsable arguments and an unknown name. */
export const toolsProbe: Probe = {
  id: "tools",
  description: "Reads get_tool_schemas, then calls every tool with empty, ill-typed and unparsable arguments, and an unknown tool name.",
  async run(engine, context) {
    const session = "tools";
    await startSession(context, engine, session);
    const schemas = await call<unknown>(context, engine, "get_tool_schemas", [], session, { case: "schemas" });
    const names: string[] = [];
    if (schemas.ok && Array.isArray(schemas.value)) {
      for (const schema of schemas.value) {
        const name = (schema as { name?: unknown } | null)?.name;
        if (typeof name === "string" && name !== "" && !names.includes(name)) names.push(name);
      }
    }
    const argumentSets: Array<[string, unknown]> = [
      ["empty", {}],
      ["ill-typed", { query: 42, limit: "many", node_id: ["x"], unexpected: { nested: true } }],
      ["unparsable", "{not json"],
    ];
    for (const name of names) {
      for (const [kind, args] of argumentSets) {
        await call(context, engine, "handle_tool_call", [name, args, { messages: [] }], session, { case: `${name}:${kind}`, tool: name, known: true });
      }
    }
    await call(context, engine, "handle_tool_call", ["ctxbench_no_such_tool", {}, { messages: [] }], session, { case: "unknown", tool: "ctxbench_no_such_tool", known: false });
  },
};
