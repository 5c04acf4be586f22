import type { Message, ToolCall, ToolCallUids } from "../contract/types.ts";
import { isCleanUidMap, readToolCallUidMap, setUidEntry, toolCallUidMap, uidEntry } from "./identity-json.ts";
import type { UidMinter } from "./uid.ts";

/** Provider id → uid of the occurrence that currently owns results with that id. */
export type ToolCallUidIndex = Map<string, string>;

/** The effective provider id of one call (`call_id` wins over `id`, as in the Responses API). */
export function toolCallId(call: unknown): string | null {
  if (typeof call !== "object" || call === null) return null;
  const record = call as { call_id?: unknown; id?: unknown };
  if (typeof record.call_id === "string" && record.call_id.length > 0) return record.call_id;
  if (typeof record.id === "string" && record.id.length > 0) return record.id;
  return null;
}

export function toolCallsOf(message: Message): ToolCall[] {
  return Array.isArray(message.tool_calls) ? message.tool_calls : [];
}

/** Spellings a result may use to name a call: a composite `call|item` id also answers to `call`. */
export function idVariants(id: string): string[] {
  const bar = id.indexOf("|");
  return bar > 0 ? [id, id.slice(0, bar)] : [id];
}

/**
 * The uid each call occurrence persisted, in `tool_calls` order: a list value is consumed one
 * element per occurrence, a scalar fills every occurrence, an unmapped id gives null.
 */
export function occurrenceSlots(calls: readonly ToolCall[], rawMap: unknown): Array<string | null> {
  return slotsOfMap(calls, readToolCallUidMap(rawMap) ?? {});
}

function slotsOfMap(calls: readonly ToolCall[], map: ToolCallUids): Array<string | null> {
  let seen: Map<string, number> | null = null;
  return calls.map((call) => {
    const id = toolCallId(call);
    if (id === null) return null;
    const value = uidEntry(map, id);
    if (typeof value === "string") return value;
    if (!Array.isArray(value)) return null;
    seen ??= new Map();
    const occurrence = seen.get(id) ?? 0;
    seen.set(id, occurrence + 1);
    return value[occurrence] ?? null;
  });
}

/** Registers an assistant's calls: the last occurrence owns later results; a null slot clears. */
export function indexToolCallUids(index: ToolCallUidIndex, assistant: Message): void {
  indexCalls(index, toolCallsOf(assistant), readToolCallUidMap(assistant._tool_call_uids) ?? {});
}

function indexCalls(index: ToolCallUidIndex, calls: readonly ToolCall[], map: ToolCallUids): void {
  for (const call of calls) {
    const id = toolCallId(call);
    if (id !== null) setVariants(index, id, null);
  }
  const slots = slotsOfMap(calls, map);
  for (let position = 0; position < calls.length; position++) {
    const id = toolCallId(calls[position]);
    if (id !== null) setVariants(index, id, slots[position] ?? null);
  }
}

/** `idVariants` without the array: this runs for every call of every appended message. */
function setVariants(index: ToolCallUidIndex, id: string, uid: string | null): void {
  const bar = id.indexOf("|");
  if (uid === null) {
    index.delete(id);
    if (bar > 0) index.delete(id.slice(0, bar));
  } else {
    index.set(id, uid);
    if (bar > 0) index.set(id.slice(0, bar), uid);
  }
}

export function resolveToolCallUid(index: ToolCallUidIndex, toolCallIdValue: unknown): string | null {
  if (typeof toolCallIdValue !== "string" || toolCallIdValue.length === 0) return null;
  const uid = index.get(toolCallIdValue);
  if (uid !== undefined) return uid;
  const bar = toolCallIdValue.indexOf("|");
  return bar > 0 ? (index.get(toolCallIdValue.slice(0, bar)) ?? null) : null;
}

/**
 * Stamps tool-call identity on one message of a batch being inserted (TCU-1, TCU-2): an assistant
 * gets one fresh uid per provider id it does not map yet (repeats within the response share it),
 * a user turn fences the index, and a result without a uid takes the owning call's uid.
 */
export function stampToolCallUids(message: Message, index: ToolCallUidIndex, mint: UidMinter): void {
  if (message.role === "user") {
    index.clear();
    return;
  }
  if (message.role === "assistant") {
    const calls = toolCallsOf(message);
    if (calls.length === 0) return;
    const raw = message._tool_call_uids;
    const supplied = typeof raw === "object" && raw !== null && !Array.isArray(raw);
    if (supplied && keepsSuppliedMap(raw, calls)) {
      // Already clean and naming every call: the copy below would equal it, so the message keeps its own map.
      indexCalls(index, calls, raw);
      return;
    }
    const map: ToolCallUids = supplied ? (toolCallUidMap(raw) ?? {}) : freshUidMap();
    // An id the map names with only null slots is mapped (its occurrences predate uids), so it
    // is not minted; a result of a call never persisted with a uid has none (TCU-2).
    let mapped = false;
    for (const call of calls) {
      const id = toolCallId(call);
      if (id === null) continue;
      if (uidEntry(map, id) === undefined && !(supplied && Object.hasOwn(raw, id))) setUidEntry(map, id, mint());
      mapped ||= uidEntry(map, id) !== undefined;
    }
    if (!supplied) Object.setPrototypeOf(map, Object.prototype); // an ordinary object to the caller
    if (mapped || Object.keys(map).length > 0) message._tool_call_uids = map;
    else delete message._tool_call_uids;
    indexCalls(index, calls, map);
    return;
  }
  if (message.role === "tool" && !hasToolCallUid(message)) {
    const uid = resolveToolCallUid(index, message.tool_call_id);
    if (uid !== null) message._tool_call_uid = uid;
  }
}

function keepsSuppliedMap(raw: ToolCallUids, calls: readonly ToolCall[]): boolean {
  if (Object.getPrototypeOf(raw) !== Object.prototype || !isCleanUidMap(raw) || Object.keys(raw).length === 0) return false;
  for (const call of calls) {
    const id = toolCallId(call);
    if (id !== null && !Object.hasOwn(raw, id)) return false;
  }
  return true;
}

/**
 * An empty map for one assistant's call uids, made without a prototype so V8 keeps it as a
 * dictionary: its keys are provider ids, a new property name nearly every time, and adding those
 * to an ordinary object literal costs a hidden-class transition each (2–3 % of an append, A/B).
 */
function freshUidMap(): ToolCallUids {
  return Object.create(null) as ToolCallUids;
}

export function hasToolCallUid(message: Message): boolean {
  return typeof message._tool_call_uid === "string" && message._tool_call_uid.length > 0;
}

/**
 * Pairing a result against the live list at a later flush: walk back to the nearest assistant
 * that names the id; that assistant owns the result even if it has no uid map (legacy), and a
 * user turn ends the walk.
 */
export function toolCallUidFromHistory(messages: readonly Message[], position: number): string | null {
  const result = messages[position];
  if (result === undefined) return null;
  const wanted = result.tool_call_id;
  if (typeof wanted !== "string" || wanted.length === 0) return null;
  const wantedVariants = new Set(idVariants(wanted));
  for (let i = position - 1; i >= 0; i--) {
    const candidate = messages[i];
    if (candidate === undefined) continue;
    if (candidate.role === "user") return null;
    if (candidate.role !== "assistant") continue;
    const names = toolCallsOf(candidate).some((call) => {
      const id = toolCallId(call);
      return id !== null && idVariants(id).some((variant) => wantedVariants.has(variant));
    });
    if (!names) continue;
    const index: ToolCallUidIndex = new Map();
    indexToolCallUids(index, candidate);
    return resolveToolCallUid(index, wanted);
  }
  return null;
}

/**
 * The uid map of two assistant turns folded into one (`prev` calls, then `next` calls): one slot
 * per occurrence in call order; an id named once keeps a scalar; all-null ids and keys that name
 * no call are dropped. Returns null when nothing is mapped.
 */
export function foldToolCallUids(prev: Message, next: Message): ToolCallUids | null {
  const prevCalls = toolCallsOf(prev);
  const nextCalls = toolCallsOf(next);
  const slots = [
    ...occurrenceSlots(prevCalls, prev._tool_call_uids),
    ...occurrenceSlots(nextCalls, next._tool_call_uids),
  ];
  const perId = new Map<string, Array<string | null>>();
  [...prevCalls, ...nextCalls].forEach((call, position) => {
    const id = toolCallId(call);
    if (id === null) return;
    const list = perId.get(id) ?? [];
    list.push(slots[position] ?? null);
    perId.set(id, list);
  });
  const folded: ToolCallUids = {};
  for (const [id, list] of perId) {
    if (list.every((slot) => slot === null)) continue;
    setUidEntry(folded, id, list.length === 1 ? (list[0] as string) : list);
  }
  return Object.keys(folded).length > 0 ? folded : null;
}
