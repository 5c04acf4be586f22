import { ContextEngine, ENGINE_BRAND, type OptionalHook } from "../../contract/context-engine.ts";
import type { Message } from "../../contract/types.ts";
import { isValidSequence } from "../../contract/validate.ts";
import { digestValue } from "../../trace/canonical-json.ts";
import type { Probe } from "../types.ts";
import { call, compressCase, startSession } from "./call.ts";
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

/** Distinctive names planted in the selection probe's early turns, which its later questions ask about. */
export const SELECTION_CODENAMES = ["ZEPHYR", "QUILLON", "MARROW", "TALISK", "OBERVAN", "PELLIX"] as const;

/**
 * SEL-6..9, CACHE-2: select_context as the host calls it through a session's life. Early turns
 * of every size (tool outputs from tens of characters to tens of thousands, turns from a few
 * words to hundreds) plant distinctive facts; the engine compacts them once (its own compress
 * output becomes the history, as after a committed pass); later turns ask about the compacted
 * facts, so engines that retrieve, route or trim by size have something to act on. Each request
 * is selected once per turn as it grows, then twice more with nothing changed; on_turn_complete
 * sees every finished turn. Inputs are digested before and after each call.
 */
export const selectionProbe: Probe = {
  id: "selection",
  description: "Drives select_context through a session: varied-size turns with planted facts, one compaction by the engine, then growing turns that ask about the compacted facts, and two unchanged repeats.",
  async run(engine, context) {
    if (!implementsHook(engine, "select_context")) return;
    const session = "selection";
    await startSession(context, engine, session);
    const observes = implementsHook(engine, "on_turn_complete");
    const turnComplete = async (messages: Message[], name: string) => {
      if (!observes) return;
      const info = { turn_id: `selection-${name}`, task_id: "selection", api_call_count: 1, interrupted: false, failed: false, turn_exit_reason: "completed" };
      const copies = jsonCopy(messages);
      const usage = { prompt_tokens: 1000, completion_tokens: 50, total_tokens: 1050 };
      await call(context, engine, "on_turn_complete", [copies, usage, info], session, { case: `selection-${name}`, before: digest(copies), usage }, () => ({ after: digest(copies) }));
    };
    const facts: Record<number, string> = {};
    SELECTION_CODENAMES.forEach((name, index) => (facts[index * 2] = `Remember: the ${name} release is pinned to build ${4200 + index}.`));
    const early = buildConversation(context.seed + 20, { turns: 12, words: { min: 3, max: 120 }, toolEvery: 2, batch: { min: 1, max: 3 }, resultChars: { min: 20, max: 30_000 }, facts }, "selection");
    await turnComplete(early, "early");
    const compacted = await compressCase(context, engine, session, "selection-history", early);
    // A broken compaction is CMP's business; selection is then judged on the uncompacted history.
    const usable = compacted.ok && Array.isArray(compacted.value) && compacted.value.length > 0 && isValidSequence(compacted.value);
    let history: Message[] = usable ? jsonCopy(compacted.value as Message[]) : jsonCopy(early);

    const later = buildConversation(context.seed + 21, { turns: SELECTION_CODENAMES.length, words: { min: 3, max: 300 }, toolEvery: 2, batch: { min: 1, max: 4 }, resultChars: { min: 20, max: 30_000 } }, "selection-later").slice(1);
    const turns = splitTurns(later);
    const select = async (name: string, request: Message[]) => {
      const args = jsonCopy(request);
      const conversationMessages = jsonCopy(request);
      const incoming = jsonCopy(request.findLast((m) => m.role === "user") ?? null);
      const before = { request: digest(args), conversation: digest(conversationMessages), incoming: digest(incoming) };
      const options = { conversation_messages: conversationMessages, incoming_message: incoming, budget_tokens: engine.context_length };
      await call<Message[] | null>(context, engine, "select_context", [args, options], session, { case: name, request: jsonCopy(request), before }, () => ({
        after: { request: digest(args), conversation: digest(conversationMessages), incoming: digest(incoming) },
        // An in-place edit of request_messages is request-only and allowed (upstream passes the live list): what it leaves is what would be sent.
        requestAfter: jsonCopy(args),
      }));
    };
    for (const [index, turn] of turns.entries()) {
      const [user, ...rest] = turn;
      const question = { ...user!, content: `${String(user!.content)} Which build is the ${SELECTION_CODENAMES[index % SELECTION_CODENAMES.length]} release pinned to?` };
      history = [...history, question];
      await select(`grow-${index}`, history);
      history = [...history, ...rest];
      await turnComplete(history, `turn-${index}`);
    }
    await select("repeat-1", history);
    await select("repeat-2", history);
  },
};

/** A transcript without its system message, cut into turns (each from a user message to the next). */
function splitTurns(messages: readonly Message[]): Message[][] {
  const turns: Message[][] = [];
  for (const message of messages) {
    if (message.role === "user" || turns.length === 0) turns.push([message]);
    else turns[turns.length - 1]!.push(message);
  }
  return turns;
}

/** OTC-4, OTC-5: on_turn_complete with a digested transcript of every size, and with a null usage. */
export const turnCompleteProbe: Probe = {
  id: "turn-complete",
  description: "Calls on_turn_complete after a completed turn and after an interrupted one (usage null), on transcripts of mixed sizes, digesting the transcript before and after.",
  async run(engine, context) {
    if (!implementsHook(engine, "on_turn_complete")) return;
    const session = "turn-complete";
    await startSession(context, engine, session);
    const transcript = buildConversation(context.seed + 30, { turns: 8, words: { min: 3, max: 200 }, toolEvery: 2, batch: { min: 1, max: 3 }, resultChars: { min: 20, max: 20_000 } }, "otc");
    const cases: Array<{ name: string; usage: unknown; interrupted: boolean }> = [
      { name: "completed", usage: { prompt_tokens: 900, completion_tokens: 40, total_tokens: 940 }, interrupted: false },
      { name: "interrupted", usage: null, interrupted: true },
    ];
    for (const [index, item] of cases.entries()) {
      const messages = jsonCopy(transcript);
      const before = digest(messages);
      const info = { turn_id: `turn-${index}`, task_id: "task-0", api_call_count: 1, interrupted: item.interrupted, failed: false, turn_exit_reason: item.interrupted ? "interrupted" : "completed" };
      await call(context, engine, "on_turn_complete", [messages, item.usage, info], session, { case: item.name, before, usage: item.usage }, () => ({ after: digest(messages) }));
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
