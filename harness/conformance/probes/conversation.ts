import type { Message, ToolCall } from "../../contract/types.ts";
import { seededRandom } from "../../util/random.ts";
import { uidFor } from "../../util/uid.ts";

const WORDS = [
  "deploy", "cluster", "schema", "latency", "invoice", "parser", "gateway", "cache", "ledger", "widget",
  "migration", "tenant", "router", "bucket", "replica", "token", "budget", "shard", "queue", "backlog",
];

/** A size drawn per message, log-uniformly between the bounds, so small and huge ones both occur. */
export interface SizeRange {
  min: number;
  max: number;
}
export type Size = number | SizeRange;

export interface ConversationShape {
  turns: number;
  /** Words per user or assistant text. */
  words: Size;
  /** Every `toolEvery`-th turn makes tool calls (0 = never). */
  toolEvery?: number;
  /** Calls per tool batch (>1 = a parallel batch). */
  batch?: Size;
  /** Tool rounds in a tool turn before the answer (>1 = the model calls tools again after seeing results). */
  rounds?: Size;
  /** How provider ids are made: unique, one constant id, or reused per call position across turns. */
  ids?: "unique" | "constant" | "reused";
  /** Characters of each tool result. */
  resultChars?: Size;
  /** Give rows a message_uid (and tool-call uids). */
  uids?: boolean;
  /** Facts planted in user messages: turn index → text appended. */
  facts?: Record<number, string>;
  systemPrompt?: string;
}

export const PROBE_SYSTEM_PROMPT = "You are a careful coding assistant. Answer briefly and cite the files you touch.";

/** A deterministic uid from a tag and a number. */
export const probeUid = (tag: string, n: number): string => uidFor(`${tag}:${n}`);

/** A chat transcript in OpenAI format, built from the seed and the shape. */
export function buildConversation(seed: number, shape: ConversationShape, tag = "c"): Message[] {
  const random = seededRandom(seed);
  const text = (count: number) => Array.from({ length: count }, () => WORDS[Math.floor(random() * WORDS.length)]!).join(" ");
  const size = (value: Size): number => (typeof value === "number" ? value : Math.round(Math.exp(Math.log(value.min) + random() * (Math.log(value.max) - Math.log(value.min)))));
  let uidCounter = 0;
  const stamp = (message: Message): Message => (shape.uids === false ? message : { ...message, message_uid: probeUid(tag, uidCounter++) });
  const messages: Message[] = [stamp({ role: "system", content: shape.systemPrompt ?? PROBE_SYSTEM_PROMPT })];
  let callCounter = 0;
  for (let turn = 0; turn < shape.turns; turn++) {
    const fact = shape.facts?.[turn];
    messages.push(stamp({ role: "user", content: `Turn ${turn}: ${text(size(shape.words))}${fact ? ` ${fact}` : ""}` }));
    if (shape.toolEvery && turn % shape.toolEvery === shape.toolEvery - 1) {
      const rounds = size(shape.rounds ?? 1);
      for (let round = 0; round < rounds; round++) {
        const batch = size(shape.batch ?? 1);
        const calls: ToolCall[] = [];
        for (let position = 0; position < batch; position++) {
          const id =
            shape.ids === "constant" ? "call_0" : shape.ids === "reused" ? `call_${position.toString(16).padStart(12, "0")}` : `call_${turn}_${position}_${callCounter++}`;
          calls.push({ id, type: "function", function: { name: "read_file", arguments: JSON.stringify({ path: `src/${text(1)}.ts`, line: turn }) } });
        }
        const assistant = stamp({ role: "assistant", content: null, tool_calls: calls });
        messages.push(assistant);
        for (const call of calls) {
          const body = text(Math.max(1, Math.floor(size(shape.resultChars ?? 200) / 7)));
          messages.push(stamp({ role: "tool", tool_call_id: call.id, content: body }));
        }
      }
    }
    messages.push(stamp({ role: "assistant", content: `Answer ${turn}: ${text(size(shape.words))}` }));
  }
  return messages;
}

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
