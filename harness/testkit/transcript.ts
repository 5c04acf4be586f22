/**
 * The one seeded transcript builder of ctxbench's test data: probes, engines' tests and
 * benchmarks build their OpenAI-format conversations here. Turns of a user message, optional
 * tool-call steps (parallel batches, results of chosen sizes, errors) and an answer; provider ids
 * in one of the tool-call id styles; uids the way the store stamps them. Same seed and shape, same
 * messages, byte for byte.
 */
import type { Message, ToolCall } from "../contract/types.ts";
import { seededRandom } from "../util/random.ts";
import { uidFor } from "../util/uid.ts";
import { toolCallId, type ToolCallIdStyle } from "./tool-call-ids.ts";

export const WORDS = [
  "deploy", "cluster", "schema", "latency", "invoice", "parser", "gateway", "cache", "ledger", "widget",
  "migration", "tenant", "router", "bucket", "replica", "token", "budget", "shard", "queue", "backlog",
];

/** A size drawn per use, log-uniformly between the bounds, so small and huge ones both occur. */
export interface SizeRange {
  min: number;
  max: number;
}
export type Size = number | SizeRange;

export interface TranscriptShape {
  /** Turns to build. */
  turns?: number;
  /** Instead of `turns`: build whole turns until the list holds at least this many messages. */
  messages?: number;
  /** Words per user or assistant text. */
  words: Size;
  /** Every `toolEvery`-th turn makes tool calls (0 or absent = never). */
  toolEvery?: number;
  /** Tool rounds (assistant calls + their results) in a turn that makes calls, before the answer (>1 = the model calls tools again after seeing results; default 1). */
  rounds?: Size;
  /** Calls per step (>1 = a parallel batch; default 1). */
  batch?: Size;
  /** How provider ids are made (default unique). */
  ids?: ToolCallIdStyle;
  /** Characters of each tool result (default 200). */
  resultChars?: Size;
  /** Share of tool results that are error outputs (default 0). */
  errorChance?: number;
  /** Give rows a message_uid (default true). */
  uids?: boolean;
  /** Also give assistants `_tool_call_uids` and results `_tool_call_uid`, as the store does (default false). */
  toolCallUids?: boolean;
  /** Facts planted in user messages: turn index → text appended (or a function of the turn). */
  facts?: Record<number, string> | ((turn: number) => string | undefined);
  systemPrompt?: string;
}

export const DEFAULT_SYSTEM_PROMPT = "You are a careful coding assistant. Answer briefly and cite the files you touch.";

/** A chat transcript in OpenAI format, built from the seed and the shape; `tag` names its uids. */
export function buildTranscript(seed: number, shape: TranscriptShape, tag = "c"): Message[] {
  const random = seededRandom(seed);
  const word = () => WORDS[Math.floor(random() * WORDS.length)]!;
  const text = (count: number) => Array.from({ length: count }, word).join(" ");
  const size = (value: Size): number => (typeof value === "number" ? value : Math.round(Math.exp(Math.log(value.min) + random() * (Math.log(value.max) - Math.log(value.min)))));
  const withUids = shape.uids !== false;
  let uidCounter = 0;
  const uid = () => uidFor(`${tag}:${uidCounter++}`);
  const stamp = (message: Message): Message => (withUids ? { ...message, message_uid: uid() } : message);
  const factOf = (turn: number) => (typeof shape.facts === "function" ? shape.facts(turn) : shape.facts?.[turn]);
  const done = (turn: number, count: number) => (shape.messages !== undefined ? count >= shape.messages : turn >= (shape.turns ?? 0));

  const messages: Message[] = [stamp({ role: "system", content: shape.systemPrompt ?? DEFAULT_SYSTEM_PROMPT })];
  let serial = 0;
  for (let turn = 0; !done(turn, messages.length); turn++) {
    const fact = factOf(turn);
    messages.push(stamp({ role: "user", content: `Turn ${turn}: ${text(size(shape.words))}${fact ? ` ${fact}` : ""}` }));
    if (shape.toolEvery && turn % shape.toolEvery === shape.toolEvery - 1) {
      const rounds = shape.rounds === undefined ? 1 : size(shape.rounds);
      for (let round = 0; round < rounds; round++) {
        const width = size(shape.batch ?? 1);
        const calls: ToolCall[] = [];
        for (let index = 0; index < width; index++) {
          const args = JSON.stringify({ path: `src/${text(1)}.ts`, line: turn });
          const id = toolCallId(shape.ids ?? "unique", { name: "read_file", args, index }, () => `call_${turn}_${index}_${serial}`);
          serial += 1;
          calls.push({ id, type: "function", function: { name: "read_file", arguments: args } });
        }
        const assistant: Message = { role: "assistant", content: null, tool_calls: calls };
        if (shape.toolCallUids === true) assistant._tool_call_uids = Object.fromEntries(calls.map((call) => [call.id, uid()]));
        const stamped = stamp(assistant);
        messages.push(stamped);
        for (const call of calls) {
          const failing = shape.errorChance !== undefined && random() < shape.errorChance;
          const body = failing ? `Error: ${text(3)} failed at ${JSON.parse(call.function.arguments).path}\nexit code 1` : text(Math.max(1, Math.floor(size(shape.resultChars ?? 200) / 7)));
          const result: Message = { role: "tool", tool_call_id: call.id, content: body };
          const callUid = (stamped._tool_call_uids as Record<string, string> | undefined)?.[call.id];
          if (callUid) result._tool_call_uid = callUid;
          messages.push(stamp(result));
        }
      }
    }
    messages.push(stamp({ role: "assistant", content: `Answer ${turn}: ${text(size(shape.words))}` }));
  }
  return messages;
}

const SAMPLE_TOPICS = ["database", "auth", "deploy", "billing", "cache", "logging"];

export interface SampleOptions {
  /** Roughly how many messages to produce (the last turn is completed, so a few more may come). */
  messages: number;
  seed?: number;
  idStyle?: ToolCallIdStyle;
  /** Characters of the largest tool outputs (default 1,200). */
  largeOutputChars?: number;
  /** Give every message a `message_uid` and every call its tool-call uids (default true). */
  withUids?: boolean;
  systemPrompt?: string;
}

/**
 * An agent's coding session for engines' tests and throughput benchmarks: every turn one to
 * three tool-call steps, parallel batches among them, outputs from short to large, some errors,
 * and a fact about one of a few topics planted every other turn (`the database setting for turn 3
 * is DAT-1003`), for focus and recall tests.
 */
export function sampleTranscript(options: SampleOptions): Message[] {
  const seed = options.seed ?? 1;
  const withUids = options.withUids ?? true;
  return buildTranscript(
    seed,
    {
      messages: options.messages,
      words: { min: 8, max: 14 },
      toolEvery: 1,
      rounds: { min: 1, max: 3 },
      batch: { min: 1, max: 3 },
      ids: options.idStyle ?? "unique",
      resultChars: { min: 80, max: options.largeOutputChars ?? 1200 },
      errorChance: 0.15,
      uids: withUids,
      toolCallUids: withUids,
      facts: (turn) => {
        if (turn % 2 === 0) return undefined;
        const topic = SAMPLE_TOPICS[Math.floor(turn / 2) % SAMPLE_TOPICS.length]!;
        return `For the record: the ${topic} setting for turn ${turn} is ${topic.slice(0, 3).toUpperCase()}-${1000 + turn}.`;
      },
      ...(options.systemPrompt !== undefined ? { systemPrompt: options.systemPrompt } : {}),
    },
    `sample:${seed}`,
  );
}
