import { createHash } from "node:crypto";
import type { ContentPart, Message } from "../../harness/contract/types.ts";
import { messageText } from "../shared/message-text.ts";

/**
 * The summary carrier: the message that holds the compressor's summary in the compacted list.
 * Its uid starts with a fixed hex prefix so later passes recognise it even after the host folds it
 * into a neighbour; its text is framed so it also survives a host that drops uids.
 */
export const SUMMARY_PREFIX =
  "[COMPACTED CONTEXT — for reference only] Earlier turns of this conversation were condensed into the notes below. " +
  "They are background, not instructions: where they disagree with the latest user message, the latest message wins. " +
  "Tools remain available.";
export const SUMMARY_END = "[END OF COMPACTED CONTEXT — reply to the conversation that follows]";
const PRIOR_OPEN = "[PRIOR CONTEXT — merged into this message by compaction; not part of what the user wrote]";
const PRIOR_CLOSE = "[END OF PRIOR CONTEXT]";

/** 8 hex digits that open every carrier uid (uids are 32 lowercase hex). */
export const CARRIER_UID_PREFIX = "c0a1e5ce";

export function isCarrierUid(uid: unknown): uid is string {
  return typeof uid === "string" && uid.startsWith(CARRIER_UID_PREFIX);
}

/** A carrier uid derived from what the summary replaces, so the same input gives the same uid. */
export function mintCarrierUid(seed: string): string {
  return CARRIER_UID_PREFIX + createHash("sha256").update(seed).digest("hex").slice(0, 24);
}

export function carrierText(body: string): string {
  return `${SUMMARY_PREFIX}\n\n${body}\n\n${SUMMARY_END}`;
}

/** Is this message (or a message the host folded into it) a compressor summary? */
export function holdsCarrier(message: Message): boolean {
  if (isCarrierUid(message.message_uid)) return true;
  const absorbed = message._absorbed_message_uids;
  if (Array.isArray(absorbed) && absorbed.some(isCarrierUid)) return true;
  const content = message.content;
  if (typeof content === "string") return content.startsWith(SUMMARY_PREFIX) || content.startsWith(PRIOR_OPEN);
  if (Array.isArray(content)) {
    const first = content[0] as { type?: unknown; text?: unknown } | undefined;
    return first?.type === "text" && typeof first.text === "string" && (first.text.startsWith(SUMMARY_PREFIX) || first.text.startsWith(PRIOR_OPEN));
  }
  return false;
}

export interface Unwrapped {
  /** The summary bodies the message carried, in text order. */
  bodies: string[];
  /** The message without the summary, or null when nothing else was in it. */
  rest: Message | null;
  /** The carrier's uid, when one is known. */
  uid: string | null;
}

/** Separate a carrier-holding message into the summary it carries and whatever the host folded in with it. */
export function unwrapCarrier(message: Message): Unwrapped {
  const text = messageText(message);
  const bodies: string[] = [];
  let rest = "";
  let cursor = 0;
  while (cursor < text.length) {
    const start = text.indexOf(SUMMARY_PREFIX, cursor);
    if (start === -1) break;
    const end = text.indexOf(SUMMARY_END, start);
    const bodyEnd = end === -1 ? text.length : end;
    rest += text.slice(cursor, start);
    bodies.push(text.slice(start + SUMMARY_PREFIX.length, bodyEnd).trim());
    cursor = end === -1 ? text.length : end + SUMMARY_END.length;
  }
  rest += text.slice(cursor);
  rest = rest.split(PRIOR_OPEN).join("").split(PRIOR_CLOSE).join("").trim();

  const ownUid = isCarrierUid(message.message_uid) ? message.message_uid : null;
  const absorbed = Array.isArray(message._absorbed_message_uids) ? message._absorbed_message_uids : [];
  const uid = ownUid ?? absorbed.find(isCarrierUid) ?? null;
  if (rest === "" && !hasNonTextParts(message)) return { bodies, rest: null, uid };

  // What remains is the host's fold of another message into the carrier: give it back its own identity.
  const restMessage: Message = { ...message, content: replaceText(message, rest) };
  const others = absorbed.filter((id) => !isCarrierUid(id));
  if (ownUid) {
    const [first, ...later] = others;
    if (first) restMessage.message_uid = first;
    else delete restMessage.message_uid;
    setAbsorbed(restMessage, later);
  } else setAbsorbed(restMessage, others);
  return { bodies, rest: restMessage, uid };
}

function setAbsorbed(message: Message, uids: string[]): void {
  if (uids.length > 0) message._absorbed_message_uids = uids;
  else delete message._absorbed_message_uids;
}

function hasNonTextParts(message: Message): boolean {
  return Array.isArray(message.content) && message.content.some((part) => part?.type !== "text");
}

function replaceText(message: Message, text: string): string | ContentPart[] {
  if (!Array.isArray(message.content)) return text;
  const others = message.content.filter((part) => part?.type !== "text");
  return text === "" ? others : [{ type: "text", text }, ...others];
}

export type CarrierRole = "user" | "assistant";
export type Placement = { kind: "insert"; role: CarrierRole } | { kind: "merge" };

/**
 * Where the summary goes between the head (ending in `before`) and the tail (starting with `after`):
 * as its own message whose role breaks no alternation, or folded into the first tail message when
 * both roles would collide. It is a user message when it would be the first visible message (some
 * providers require user first), after an assistant or tool message, or when no user message survives.
 */
export function placeCarrier(before: string | null, after: string | null, userSurvives: boolean): Placement {
  const firstVisible = before === null || before === "system";
  const preferred: CarrierRole = firstVisible || !userSurvives || before !== "user" ? "user" : "assistant";
  const other: CarrierRole = preferred === "user" ? "assistant" : "user";
  const allowed = (role: CarrierRole) => {
    if (role === after || role === before) return false;
    if (role === "assistant" && (firstVisible || !userSurvives)) return false;
    return true;
  };
  if (allowed(preferred)) return { kind: "insert", role: preferred };
  if (allowed(other)) return { kind: "insert", role: other };
  if (after !== null) return { kind: "merge" };
  return { kind: "insert", role: preferred };
}

/** The carrier as a message of its own. */
export function carrierMessage(role: CarrierRole, body: string, uid: string): Message {
  return { role, content: carrierText(body), message_uid: uid };
}

/** The first tail message with the summary folded in front; it keeps its uid and records the carrier's. */
export function mergeCarrierInto(message: Message, body: string, uid: string): Message {
  const framed = `${PRIOR_OPEN}\n${carrierText(body)}\n${PRIOR_CLOSE}`;
  const merged: Message = { ...message };
  if (Array.isArray(message.content)) {
    merged.content = [{ type: "text", text: framed } as ContentPart, ...message.content];
  } else {
    const original = typeof message.content === "string" ? message.content : "";
    merged.content = original === "" ? framed : `${framed}\n\n${original}`;
  }
  const absorbed = Array.isArray(message._absorbed_message_uids) ? message._absorbed_message_uids : [];
  merged._absorbed_message_uids = [uid, ...absorbed.filter((id) => id !== uid)];
  return merged;
}

/** Characters the carrier adds around a body: used to size the body within a token budget. */
export const CARRIER_FRAME_CHARS = SUMMARY_PREFIX.length + SUMMARY_END.length + PRIOR_OPEN.length + PRIOR_CLOSE.length + 8;
