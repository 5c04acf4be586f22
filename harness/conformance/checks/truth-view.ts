import type { Message } from "../../contract/types.ts";
import { wireJsonOf } from "./message-json.ts";
import { isMessageObject } from "./helpers.ts";

/**
 * The output as it really pairs, for inputs whose provider tool-call ids repeat (TCU-3).
 *
 * A provider pairs results with calls by id alone, so with repeated ids it cannot tell a result
 * from the one it answers in another turn: an output that keeps A1's call and A2's result looks
 * valid to it. Here every call occurrence of the input gets an id of its own (the input's results
 * follow their assistant, so the input says which result answers which call), the output's
 * messages are traced back to the input messages they came from, and their ids are rewritten to
 * those occurrence ids. Validating the rewritten output shows the pairing as it is, not as the ids
 * make it look. Messages the engine wrote itself keep their ids.
 */
export function withOccurrenceIds(input: readonly Message[], output: readonly unknown[]): unknown[] {
  const occurrences = occurrenceIds(input);
  const origin = originOf(input, output);
  return output.map((message, index) => {
    const from = origin[index];
    if (from === undefined || !isMessageObject(message)) return message;
    const ids = occurrences.get(from);
    if (ids === undefined) return message;
    if (typeof ids === "string") return typeof message.tool_call_id === "string" ? { ...message, tool_call_id: ids } : message;
    if (!Array.isArray(message.tool_calls)) return message;
    const used = new Map<string, number>();
    const calls = message.tool_calls.map((call) => {
      const id = call?.id;
      if (typeof id !== "string") return call;
      const nth = used.get(id) ?? 0;
      used.set(id, nth + 1);
      const renamed = ids.find((entry) => entry.id === id && entry.nth === nth);
      return renamed ? { ...call, id: renamed.occurrence } : call;
    });
    return { ...message, tool_calls: calls };
  });
}

type OccurrenceIds = string | Array<{ id: string; nth: number; occurrence: string }>;

/**
 * Input index → its calls' occurrence ids (an assistant) or the occurrence id of the call it
 * answers (a tool result): the result pairs with the first unanswered call of its id in the
 * nearest assistant batch before it, within the turn.
 */
function occurrenceIds(input: readonly Message[]): Map<number, OccurrenceIds> {
  const ids = new Map<number, OccurrenceIds>();
  let open: Array<{ id: string; occurrence: string; answered: boolean }>[] = [];
  input.forEach((message, index) => {
    if (message.role === "user") open = [];
    if (message.role === "assistant" && Array.isArray(message.tool_calls) && message.tool_calls.length > 0) {
      const nths = new Map<string, number>();
      const entries = message.tool_calls.map((call, position) => {
        const id = String(call?.id);
        const nth = nths.get(id) ?? 0;
        nths.set(id, nth + 1);
        return { id, nth, occurrence: `occurrence-${index}-${position}` };
      });
      ids.set(index, entries);
      open.push(entries.map((entry) => ({ id: entry.id, occurrence: entry.occurrence, answered: false })));
    }
    if (message.role === "tool" && typeof message.tool_call_id === "string") {
      for (let b = open.length - 1; b >= 0; b--) {
        const call = open[b]!.find((candidate) => candidate.id === message.tool_call_id && !candidate.answered);
        if (!call) continue;
        call.answered = true;
        ids.set(index, call.occurrence);
        break;
      }
    }
  });
  return ids;
}

/**
 * Output index → the input index it came from: the same message_uid (the later row when a uid is
 * shared and the text equal), else the same wire message, else — for a tool message or a tool-call
 * assistant whose text changed and who has no uid — the next input message in order with the same
 * call ids. Engine-written messages map to nothing.
 */
function originOf(input: readonly Message[], output: readonly unknown[]): Array<number | undefined> {
  const wireOf = (message: unknown) => (isMessageObject(message) ? wireJsonOf(message) : "");
  const inputWire = input.map(wireOf);
  const byUid = new Map<string, number[]>();
  const byWire = new Map<string, number[]>();
  input.forEach((message, index) => {
    if (typeof message.message_uid === "string") byUid.set(message.message_uid, [...(byUid.get(message.message_uid) ?? []), index]);
    byWire.set(inputWire[index]!, [...(byWire.get(inputWire[index]!) ?? []), index]);
  });
  const taken = new Set<number>();
  let cursor = 0;
  /**
   * Equal messages (identical calls in two turns) are told apart by what follows them: the
   * candidate whose next input message is the output's next message; else the first after the
   * last one traced, as the output keeps the input's order.
   */
  const take = (candidates: number[] | undefined, at: number, prefer?: (index: number) => boolean): number | undefined => {
    let free = (candidates ?? []).filter((index) => !taken.has(index));
    if (prefer) free = [...free.filter(prefer), ...free.filter((index) => !prefer(index))];
    if (free.length > 1 && at + 1 < output.length) {
      const next = wireOf(output[at + 1]);
      const followed = free.filter((index) => inputWire[index + 1] === next);
      if (followed.length === 1) free = followed;
    }
    const chosen = free.find((index) => index >= cursor) ?? free[0];
    if (chosen !== undefined) taken.add(chosen);
    return chosen;
  };
  return output.map((message, at) => {
    if (!isMessageObject(message)) return undefined;
    const wire = wireOf(message);
    let from: number | undefined;
    if (typeof message.message_uid === "string" && byUid.has(message.message_uid)) from = take(byUid.get(message.message_uid), at, (index) => inputWire[index] === wire);
    from ??= take(byWire.get(wire), at);
    from ??= take(callIdsMatches(input, message, cursor), at);
    if (from !== undefined) cursor = from + 1;
    return from;
  });
}

/** Input indices at or after `from` holding the same calls (or answering the same call id) as `message`. */
function callIdsMatches(input: readonly Message[], message: Message, from: number): number[] {
  const key = callKey(message);
  if (key === null) return [];
  const found: number[] = [];
  for (let index = from; index < input.length; index++) if (input[index]!.role === message.role && callKey(input[index]!) === key) found.push(index);
  return found;
}

function callKey(message: Message): string | null {
  if (message.role === "tool" && typeof message.tool_call_id === "string") return `result:${message.tool_call_id}`;
  if (message.role === "assistant" && Array.isArray(message.tool_calls) && message.tool_calls.length > 0) return `calls:${message.tool_calls.map((call) => String(call?.id)).join(",")}`;
  return null;
}
