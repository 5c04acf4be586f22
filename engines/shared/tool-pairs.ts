import type { Message } from "../../harness/contract/types.ts";

/**
 * Tool-call pairing and atomic units.
 *
 * Provider tool-call ids are not unique: a model may reuse an id across turns, a provider may mint
 * the same deterministic `call_<12hex>` id for identical calls inside one response, and some models
 * send a constant id every turn. A result is therefore paired with the nearest preceding assistant
 * message (within the same user turn) that named its id and still has an unanswered occurrence of
 * it; a result for which no such occurrence is left answers nothing (an orphan, as a surplus
 * duplicate is). A user message closes the turn: no result pairs with a call made before it.
 */

/** A run of messages that must be kept or dropped together: `messages.slice(start, end)`. */
export interface ToolUnit {
  start: number;
  /** Exclusive. */
  end: number;
}

export interface ToolPairing {
  units: ToolUnit[];
  /** Message index → index into `units`. */
  unitOf: Int32Array;
  /** For a tool message: the index of the assistant message that made its call, or -1 (orphan). -1 for other roles. */
  pairedAssistant: Int32Array;
  /** Indices of tool messages that answer no call. */
  orphanResults: number[];
  /** Calls with no result: the assistant's index and the call's position in its `tool_calls`. */
  unansweredCalls: Array<{ assistant: number; callIndex: number }>;
}

export function hasToolCalls(message: Message): boolean {
  return message.role === "assistant" && Array.isArray(message.tool_calls) && message.tool_calls.length > 0;
}

interface OpenCall {
  assistant: number;
  /** Positions in tool_calls of this id's occurrences not yet answered. */
  pending: number[];
}

/** Pair every tool result with its call and group the list into atomic units. Linear in the list. */
export function pairToolCalls(messages: readonly Message[]): ToolPairing {
  const n = messages.length;
  const pairedAssistant = new Int32Array(n).fill(-1);
  const orphanResults: number[] = [];
  /** For each assistant index: the last index of a result paired with it (or -1). */
  const lastResult = new Int32Array(n).fill(-1);
  const opened: OpenCall[] = [];
  // Per id: the assistants of the current user turn that named it, oldest first.
  let byId = new Map<string, OpenCall[]>();

  for (let i = 0; i < n; i++) {
    const message = messages[i] as Message;
    const role = message.role;
    if (role === "user") {
      if (byId.size > 0) byId = new Map();
      continue;
    }
    if (role === "assistant") {
      const calls = message.tool_calls;
      if (!Array.isArray(calls)) continue;
      for (let position = 0; position < calls.length; position++) {
        const id = idOf(calls[position]?.id);
        let list = byId.get(id);
        if (!list) byId.set(id, (list = []));
        const last = list[list.length - 1];
        if (last && last.assistant === i) last.pending.push(position);
        else {
          const open: OpenCall = { assistant: i, pending: [position] };
          list.push(open);
          opened.push(open);
        }
      }
      continue;
    }
    if (role !== "tool") continue;
    const candidates = byId.get(idOf(message.tool_call_id));
    let chosen: OpenCall | undefined;
    if (candidates) {
      for (let k = candidates.length - 1; k >= 0; k--) {
        const candidate = candidates[k] as OpenCall;
        if (candidate.pending.length > 0) {
          chosen = candidate;
          break;
        }
      }
    }
    if (!chosen) {
      // No call with this id is waiting in this turn (or every one is answered): the result answers nothing.
      orphanResults.push(i);
      continue;
    }
    chosen.pending.shift();
    pairedAssistant[i] = chosen.assistant;
    lastResult[chosen.assistant] = i;
  }

  const unansweredCalls: Array<{ assistant: number; callIndex: number }> = [];
  for (const open of opened) for (const callIndex of open.pending) unansweredCalls.push({ assistant: open.assistant, callIndex });
  unansweredCalls.sort((a, b) => a.assistant - b.assistant || a.callIndex - b.callIndex);

  // A unit spans an assistant and its last result; overlapping spans merge.
  const units: ToolUnit[] = [];
  const unitOf = new Int32Array(n);
  let i = 0;
  while (i < n) {
    let end = i + 1;
    for (let j = i; j < end; j++) {
      const last = lastResult[j] as number;
      if (last >= end) end = last + 1;
    }
    unitOf.fill(units.length, i, end);
    units.push({ start: i, end });
    i = end;
  }
  return { units, unitOf, pairedAssistant, orphanResults, unansweredCalls };
}

function idOf(value: unknown): string {
  return typeof value === "string" ? value : String(value ?? "");
}

/** The list's atomic units, in order. */
export function groupToolUnits(messages: readonly Message[]): ToolUnit[] {
  return pairToolCalls(messages).units;
}

/** True when cutting the list before `cut` splits no unit. 0 and the length are always boundaries. */
export function isUnitBoundary(pairing: ToolPairing, cut: number): boolean {
  const n = pairing.unitOf.length;
  if (cut <= 0 || cut >= n) return true;
  return pairing.unitOf[cut] !== pairing.unitOf[cut - 1];
}

/**
 * Move a cut (the index of the first message after it) to the nearest unit boundary:
 * `"earlier"` moves it back to the start of the unit it falls in, `"later"` forward to that unit's end.
 */
export function alignCutToUnit(pairing: ToolPairing, cut: number, direction: "earlier" | "later"): number {
  const n = pairing.unitOf.length;
  const clamped = Math.max(0, Math.min(n, Math.trunc(cut)));
  if (isUnitBoundary(pairing, clamped)) return clamped;
  const unit = pairing.units[pairing.unitOf[clamped] as number] as ToolUnit;
  return direction === "earlier" ? unit.start : unit.end;
}

/**
 * Make a list valid on its own: drop tool results that answer no call, and remove calls that have
 * no result (an assistant left with neither text nor calls gets a short note so it is not empty).
 * Messages that need no change are returned as the same objects.
 */
export function repairToolPairs(messages: readonly Message[]): Message[] {
  const pairing = pairToolCalls(messages);
  if (pairing.orphanResults.length === 0 && pairing.unansweredCalls.length === 0) return messages.slice();
  const orphans = new Set(pairing.orphanResults);
  const dropCalls = new Map<number, Set<number>>();
  for (const { assistant, callIndex } of pairing.unansweredCalls) {
    let set = dropCalls.get(assistant);
    if (!set) dropCalls.set(assistant, (set = new Set()));
    set.add(callIndex);
  }
  const out: Message[] = [];
  messages.forEach((message, index) => {
    if (orphans.has(index)) return;
    const drop = dropCalls.get(index);
    if (!drop) {
      out.push(message);
      return;
    }
    const kept = (message.tool_calls ?? []).filter((_, position) => !drop.has(position));
    const copy: Message = { ...message };
    if (kept.length > 0) copy.tool_calls = kept;
    else {
      delete copy.tool_calls;
      delete copy._tool_call_uids;
      if (copy.content === null || copy.content === undefined || copy.content === "") copy.content = "(tool call removed)";
    }
    out.push(copy);
  });
  return out;
}
