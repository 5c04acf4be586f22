import { createHash } from "node:crypto";
import { seededRandom } from "../../harness/util/random.ts";
import { uidFor } from "../../harness/util/uid.ts";
import type { Message, ToolCall } from "../../harness/contract/types.ts";

/**
 * A small seeded builder of agent transcripts for engine tests and throughput benchmarks: coding
 * turns with tool calls, parallel batches, large outputs and errors, in every tool-call id style
 * that breaks naive pairing. Same options, same messages, byte for byte.
 */

/** How tool-call ids are minted. */
export type IdStyle =
  /** unique per call */
  | "unique"
  /** the same id for every call */
  | "constant"
  /** numbering restarts every turn, so ids repeat across turns */
  | "per-turn"
  /** `call_<12hex>` of the call itself: identical calls share an id, inside one response too */
  | "hex";

export interface SampleOptions {
  /** Roughly how many messages to produce (the last turn is completed, so a few more may come). */
  messages: number;
  seed?: number;
  idStyle?: IdStyle;
  /** Characters of a large tool output (default 1,200). */
  largeOutputChars?: number;
  /** Give every message a `message_uid` and every call a `_tool_call_uids` entry (default true). */
  withUids?: boolean;
  systemPrompt?: string;
}

const FILES = ["src/server.ts", "src/db/pool.ts", "src/auth/login.ts", "docs/setup.md", "package.json", "src/api/routes.ts", "test/api.test.ts"];
const TOPICS = ["database", "auth", "deploy", "billing", "cache", "logging"];
const WORDS = "the a service request handler config value cache retry timeout user session token query index result build test error module".split(" ");

export function sampleTranscript(options: SampleOptions): Message[] {
  const random = seededRandom(options.seed ?? 1);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const style = options.idStyle ?? "unique";
  const large = options.largeOutputChars ?? 1200;
  const withUids = options.withUids ?? true;
  let uidCounter = 0;
  const uid = () => uidFor(`${options.seed ?? 1}:${uidCounter++}`);
  const stamp = (message: Message): Message => (withUids ? { ...message, message_uid: uid() } : message);
  const prose = (words: number) => Array.from({ length: words }, () => pick(WORDS)).join(" ");

  const messages: Message[] = [stamp({ role: "system", content: options.systemPrompt ?? "You are a careful coding agent. Use tools to inspect and change the repository." })];
  let callSerial = 0;
  for (let turn = 0; messages.length < options.messages; turn++) {
    const topic = pick(TOPICS);
    const fact = random() < 0.3 ? ` For the record: the ${topic} setting for turn ${turn} is ${topic.slice(0, 3).toUpperCase()}-${1000 + turn}.` : "";
    messages.push(stamp({ role: "user", content: `Turn ${turn}: please look at the ${topic} code in ${pick(FILES)} and ${prose(8)}.${fact}` }));
    let perTurn = 0;
    const steps = 1 + Math.floor(random() * 3);
    for (let step = 0; step < steps && messages.length < options.messages + 8; step++) {
      const width = random() < 0.25 ? 2 + Math.floor(random() * 2) : 1;
      const calls: ToolCall[] = [];
      for (let k = 0; k < width; k++) {
        const name = pick(["read_file", "terminal", "search", "edit_file"]);
        const args = name === "terminal" ? { command: pick(["npm test", "npm run build", "git status"]) } : { path: pick(FILES) };
        const argumentsJson = JSON.stringify(args);
        const id = toolCallId(style, { serial: callSerial++, perTurn: perTurn++, name, argumentsJson });
        calls.push({ id, type: "function", function: { name, arguments: argumentsJson } });
      }
      const assistant: Message = { role: "assistant", content: random() < 0.3 ? `Checking the ${topic} path.` : null, tool_calls: calls };
      if (withUids) assistant._tool_call_uids = Object.fromEntries(calls.map((call) => [call.id, uid()]));
      const stamped = stamp(assistant);
      messages.push(stamped);
      for (const call of calls) {
        const failing = random() < 0.15;
        const size = random() < 0.4 ? large : 80 + Math.floor(random() * 120);
        const body = failing ? `Error: ${topic} check failed at ${pick(FILES)}:${1 + Math.floor(random() * 200)}\nexit code 1` : outputOf(call, size, random);
        const result: Message = { role: "tool", tool_call_id: call.id, content: body };
        const callUid = (stamped._tool_call_uids as Record<string, string> | undefined)?.[call.id];
        if (callUid) result._tool_call_uid = callUid;
        messages.push(stamp(result));
      }
    }
    const decision = random() < 0.3 ? ` I decided to keep the ${topic} change small.` : "";
    messages.push(stamp({ role: "assistant", content: `Done with turn ${turn}: ${prose(12)}.${decision}` }));
  }
  return messages;
}

function toolCallId(style: IdStyle, call: { serial: number; perTurn: number; name: string; argumentsJson: string }): string {
  switch (style) {
    case "unique":
      return `call_${call.serial}`;
    case "constant":
      return "call_0";
    case "per-turn":
      return `call_${call.perTurn + 1}`;
    case "hex":
      return `call_${createHash("sha256").update(call.name + call.argumentsJson).digest("hex").slice(0, 12)}`;
  }
}

function outputOf(call: ToolCall, size: number, random: () => number): string {
  const lines: string[] = [];
  let length = 0;
  for (let line = 1; length < size; line++) {
    const text = `${String(line).padStart(4)} | ${call.function.name} ${WORDS[Math.floor(random() * WORDS.length)]} ${line * 7}`;
    lines.push(text);
    length += text.length + 1;
  }
  return lines.join("\n");
}
