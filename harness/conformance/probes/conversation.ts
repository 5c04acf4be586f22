import type { Message } from "../../contract/types.ts";
import { uidFor } from "../../util/uid.ts";

/** The probes' conversations come from the test-data kit's one builder. */
export { buildTranscript as buildConversation, type TranscriptShape as ConversationShape } from "../../testkit/transcript.ts";
export { DEFAULT_SYSTEM_PROMPT as PROBE_SYSTEM_PROMPT } from "../../testkit/transcript.ts";

/** A deterministic uid from a tag and a number: the uid the builder gives message `n` of a conversation tagged `tag`. */
export const probeUid = (tag: string, n: number): string => uidFor(`${tag}:${n}`);

/**
 * The same transcript with every call occurrence given an id of its own (its result follows it),
 * so repeated provider ids become unique: the counterfactual twin of a repeated-ids input.
 */
export function withUniqueToolCallIds(messages: readonly Message[]): Message[] {
  let open: Array<{ id: string; unique: string; answered: boolean }> = [];
  let counter = 0;
  // The same length as the id it replaces, so the twin's size (and any budget an engine computes from it) is the same.
  const uniqueLike = (id: string) => {
    const suffix = (counter++).toString(36).padStart(Math.min(4, id.length), "0");
    return suffix.length >= id.length ? `u${suffix}` : `${id.slice(0, id.length - suffix.length)}${suffix}`;
  };
  return messages.map((message) => {
    if (message.role === "assistant" && Array.isArray(message.tool_calls) && message.tool_calls.length > 0) {
      open = message.tool_calls.map((call) => ({ id: call.id, unique: uniqueLike(call.id), answered: false }));
      return { ...message, tool_calls: message.tool_calls.map((call, position) => ({ ...call, id: open[position]!.unique })) };
    }
    if (message.role === "tool") {
      const call = open.find((candidate) => candidate.id === message.tool_call_id && !candidate.answered);
      if (call) {
        call.answered = true;
        return { ...message, tool_call_id: call.unique };
      }
    }
    return message;
  });
}

/** Every provider tool-call id of a list, counted. */
export function toolCallIdCounts(messages: readonly Message[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const message of messages) {
    for (const call of message.tool_calls ?? []) counts.set(call.id, (counts.get(call.id) ?? 0) + 1);
  }
  return counts;
}

/** True when some provider tool-call id occurs more than once (TCU-3 territory). */
export function hasRepeatedToolCallIds(messages: readonly Message[]): boolean {
  for (const count of toolCallIdCounts(messages).values()) if (count > 1) return true;
  return false;
}

/** A deep copy through JSON: what the probe hands an engine, and what it records. */
export function jsonCopy<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}
