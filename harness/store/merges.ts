import type { Message } from "../contract/types.ts";
import { JSON_CONTENT_SENTINEL } from "./rows.ts";
import { foldToolCallUids, toolCallId, toolCallsOf } from "./tool-call-uids.ts";
import { recordAbsorbedMessage } from "./witness.ts";

/** Finish reasons that mark an assistant message as a candidate the next one supersedes. */
export const VERIFICATION_FINISH_REASONS: ReadonlySet<string> = new Set(["verification_required", "verify_hook_continue"]);

/** The display kind of a mid-turn steer; a steer is never merged into. */
export const STEER_DISPLAY_KIND = "steer";

/** Header put before an in-flight user task restated onto a summary carrier. */
export const INFLIGHT_TASK_HEADER = "\n\n[The task in progress when the context was compacted]\n";

function isPlainText(content: unknown): content is string {
  return typeof content === "string" && !content.startsWith(JSON_CONTENT_SENTINEL);
}

/** A user message `next` can be folded into `prev` as text (neither is a carrier, a steer or multimodal). */
export function canMergeUsers(prev: Message, next: Message): boolean {
  return (
    prev._compressed_summary !== true &&
    prev.display_kind !== STEER_DISPLAY_KIND &&
    isPlainText(prev.content) &&
    isPlainText(next.content)
  );
}

/** Joins `next` onto `prev` with a blank line; prev keeps its uid and records next's (UID-5). */
export function mergeUserInto(prev: Message, next: Message): void {
  const before = prev.content as string;
  const after = next.content as string;
  prev._merged_turn_prefix = before;
  prev.content = before && after ? `${before}\n\n${after}` : before || after;
  recordAbsorbedMessage(prev, next);
}

/**
 * Folds the assistant `next` into `prev`: text joined by stripped non-empty parts, a multimodal
 * side never joined, tool calls concatenated and their uids folded. Returns whether no text was
 * lost; only then is next's uid recorded as absorbed (a discarded text is no witness).
 */
export function mergeAssistantInto(prev: Message, next: Message): boolean {
  let textKept: boolean;
  if (!next.content) textKept = true;
  else if (typeof prev.content === "string" && typeof next.content === "string") {
    prev.content = [prev.content, next.content]
      .map((part) => part.trim())
      .filter((part) => part.length > 0)
      .join("\n");
    textKept = true;
  } else if (!prev.content) {
    prev.content = next.content;
    textKept = true;
  } else textKept = false;
  const calls = [...toolCallsOf(prev), ...toolCallsOf(next)];
  if (calls.length > 0) {
    const folded = foldToolCallUids(prev, next);
    prev.tool_calls = calls;
    if (folded === null) delete prev._tool_call_uids;
    else prev._tool_call_uids = folded;
  }
  if (textKept) recordAbsorbedMessage(prev, next);
  return textKept;
}

/**
 * Alternation repair, in place: consecutive assistants fold (a superseded verification candidate
 * is replaced, not absorbed), results with no preceding call are dropped, consecutive plain-text
 * users are joined. Used before a provider call and at restore.
 */
export function repairAlternation(messages: Message[]): Message[] {
  const out: Message[] = [];
  const openCalls = new Set<string>();
  for (const message of messages) {
    const prev = out[out.length - 1];
    if (message.role === "assistant" && prev?.role === "assistant") {
      if (typeof prev.finish_reason === "string" && VERIFICATION_FINISH_REASONS.has(prev.finish_reason)) {
        out[out.length - 1] = message;
      } else mergeAssistantInto(prev, message);
      for (const call of toolCallsOf(message)) addCall(openCalls, call);
      continue;
    }
    if (message.role === "tool") {
      if (typeof message.tool_call_id !== "string" || !openCalls.has(message.tool_call_id)) continue;
    }
    if (message.role === "user" && prev?.role === "user" && canMergeUsers(prev, message)) {
      mergeUserInto(prev, message);
      continue;
    }
    if (message.role === "user") openCalls.clear();
    if (message.role === "assistant") for (const call of toolCallsOf(message)) addCall(openCalls, call);
    out.push(message);
  }
  messages.splice(0, messages.length, ...out);
  return messages;
}

function addCall(openCalls: Set<string>, call: unknown): void {
  const id = toolCallId(call);
  if (id !== null) openCalls.add(id);
}

/**
 * Folds a real user anchor into the trailing scaffolding user turn that follows it: the anchor's
 * text leads, so the composite takes the anchor's uid and the scaffold's old uid joins the witness.
 */
export function mergeAnchorIntoUserMessage(target: Message, anchor: Message): void {
  const anchorText = typeof anchor.content === "string" ? anchor.content : "";
  const targetText = typeof target.content === "string" ? target.content : "";
  target.content = anchorText && targetText ? `${anchorText}\n\n${targetText}` : anchorText || targetText;
  recordAbsorbedMessage(target, anchor, { droppedLeads: true });
}

/** Restates the in-flight user task onto a summary carrier; the carrier keeps its uid and absorbs the task's. */
export function restateInflightTask(carrier: Message, inflight: Message): void {
  const task = typeof inflight.content === "string" ? inflight.content : "";
  const text = typeof carrier.content === "string" ? carrier.content : "";
  carrier.content = text + INFLIGHT_TASK_HEADER + task;
  recordAbsorbedMessage(carrier, inflight);
}

/**
 * Micro-compaction's merge of adjacent plain-text user turns left behind once a marker is dropped:
 * the earlier turn survives with the joined text, becomes model-only, and records the later uid.
 */
export function mergeAdjacentUserTurns(messages: Message[]): Message[] {
  const out: Message[] = [];
  for (const message of messages) {
    const prev = out[out.length - 1];
    if (prev !== undefined && prev.role === "user" && message.role === "user" && canMergeUsers(prev, message)) {
      prev.content = `${prev.content as string}\n\n${message.content as string}`;
      delete prev.api_content;
      const metadata = typeof prev.display_metadata === "object" && prev.display_metadata !== null ? prev.display_metadata : {};
      prev.display_metadata = { ...(metadata as Record<string, unknown>), model_only: true };
      recordAbsorbedMessage(prev, message);
      continue;
    }
    out.push(message);
  }
  messages.splice(0, messages.length, ...out);
  return messages;
}
