import type { ContentPart, ToolCallUids } from "../../harness/contract/types.ts";
import type { AssistantStep, ScenarioSession, ScenarioTurn, ScriptedToolCall } from "../format.ts";
import { ImportError, type SourcedMessage, type SourcedSession } from "./errors.ts";

const ROLES = new Set(["system", "user", "assistant", "tool"]);

/**
 * Turns of a recorded conversation: each user message opens a turn, each assistant message is a
 * step that replays it, each tool message becomes the result of the call it answers (the nearest
 * earlier call with that id still unanswered). Ids and uids are kept as recorded.
 */
export function sessionFromTranscript(file: string, source: SourcedSession): ScenarioSession {
  const session: ScenarioSession = { id: source.id, systemPrompt: source.systemPrompt ?? "", turns: [] };
  let turn: ScenarioTurn | null = null;
  for (const [position, sourced] of source.messages.entries()) {
    const message = asMessageObject(file, sourced);
    const fail = (detail: string): never => {
      throw new ImportError(file, sourced.where, detail);
    };
    switch (message.role) {
      case "system":
        if (turn !== null || position > 0) fail("a system message after the conversation started is not supported");
        session.systemPrompt = textOf(message.content, fail);
        if (typeof message.message_uid === "string" && message.message_uid) session.systemMessageUid = message.message_uid;
        break;
      case "user":
        turn = { user: userContent(message.content, fail), steps: [] };
        if (typeof message.message_uid === "string" && message.message_uid) turn.userMessageUid = message.message_uid;
        session.turns.push(turn);
        break;
      case "assistant":
        if (turn === null) fail("assistant message before any user message");
        turn!.steps.push(assistantStep(message, fail));
        break;
      case "tool":
        if (turn === null) fail("tool message before any user message");
        attachResult(turn!, message, fail);
        break;
    }
  }
  return session;
}

type Fail = (detail: string) => never;

function asMessageObject(file: string, sourced: SourcedMessage): Record<string, unknown> & { role: string } {
  const value = sourced.value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new ImportError(file, sourced.where, "a message must be a JSON object");
  const role = (value as Record<string, unknown>).role;
  if (role === undefined || role === null || role === "") throw new ImportError(file, sourced.where, "message has no role");
  if (typeof role !== "string" || !ROLES.has(role)) throw new ImportError(file, sourced.where, `unknown role ${JSON.stringify(role)}`);
  return value as Record<string, unknown> & { role: string };
}

function textOf(content: unknown, fail: Fail): string {
  if (content === undefined || content === null) return "";
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.map((part) => (typeof part === "object" && part !== null && typeof (part as { text?: unknown }).text === "string" ? (part as { text: string }).text : "")).join("");
  }
  return fail("content must be a string, a list of parts or null");
}

function userContent(content: unknown, fail: Fail): string | ContentPart[] {
  if (Array.isArray(content)) return partsOf(content, fail);
  return textOf(content, fail);
}

function partsOf(content: unknown[], fail: Fail): ContentPart[] {
  for (const part of content) {
    if (typeof part !== "object" || part === null || typeof (part as { type?: unknown }).type !== "string") fail("a content part must be an object with a type");
  }
  return content as ContentPart[];
}

function assistantStep(message: Record<string, unknown>, fail: Fail): AssistantStep {
  const step: AssistantStep = { content: message.content === null || message.content === undefined ? null : textOf(message.content, fail) };
  const calls = message.tool_calls;
  if (calls !== undefined && calls !== null) {
    if (!Array.isArray(calls)) fail("tool_calls must be a list");
    step.toolCalls = (calls as unknown[]).map((call, i) => scriptedCall(call, i, fail));
    if (step.toolCalls.length === 0) delete step.toolCalls;
  }
  if (typeof message.message_uid === "string" && message.message_uid) step.messageUid = message.message_uid;
  const uids = message._tool_call_uids;
  if (uids !== undefined && uids !== null) {
    if (typeof uids !== "object" || Array.isArray(uids)) fail("_tool_call_uids must be an object");
    step.toolCallUids = uids as ToolCallUids;
  }
  return step;
}

function scriptedCall(call: unknown, index: number, fail: Fail): ScriptedToolCall {
  const c = call as { id?: unknown; function?: { name?: unknown; arguments?: unknown } } | null;
  if (typeof c !== "object" || c === null) return fail(`tool_calls[${index}] is not an object`);
  if (typeof c.id !== "string" || c.id === "") return fail(`tool_calls[${index}] has no id`);
  const fn = c.function;
  if (typeof fn !== "object" || fn === null || typeof fn.name !== "string" || fn.name === "") return fail(`tool_calls[${index}] has no function name`);
  const args = typeof fn.arguments === "string" ? fn.arguments : fn.arguments === undefined ? "" : JSON.stringify(fn.arguments);
  return { id: c.id, name: fn.name, arguments: args, result: "", resultMissing: true };
}

function attachResult(turn: ScenarioTurn, message: Record<string, unknown>, fail: Fail): void {
  const id = message.tool_call_id;
  if (typeof id !== "string" || id === "") fail("tool message has no tool_call_id");
  for (let s = turn.steps.length - 1; s >= 0; s--) {
    const calls = turn.steps[s]!.toolCalls ?? [];
    const named = calls.filter((c) => c.id === id);
    if (named.length === 0) continue;
    const call = named.find((c) => c.resultMissing);
    if (!call) break;
    call.result = Array.isArray(message.content) ? partsOf(message.content, fail) : textOf(message.content, fail);
    delete call.resultMissing;
    if (typeof message.message_uid === "string" && message.message_uid) call.resultMessageUid = message.message_uid;
    if (typeof message._tool_call_uid === "string" && message._tool_call_uid) call.resultToolCallUid = message._tool_call_uid;
    return;
  }
  fail(`tool result ${JSON.stringify(id)} answers no unanswered call of this turn`);
}
