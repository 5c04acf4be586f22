import { countTokensExact, estimateMessageTokensExact } from "../contract/tokens-exact.ts";
import type { Message, ToolCall, Usage } from "../contract/types.ts";
import { canonicalJson } from "../trace/canonical-json.ts";
import type { AssistantStep } from "../../scenarios/format.ts";
import { PrefixTrie, PromptCache } from "./prompt-cache.ts";

interface MessageInfo {
  /** The same number for messages with the same canonical JSON, a different one otherwise: the prompt cache's key. */
  id: number;
  tokens: number;
}

/** Tokens the chat format adds to prime the reply (counted once per request). */
const REPLY_PRIMING = 3;

export interface ProviderRequest {
  session: string;
  /** Never changed after the call: the provider remembers them to know a repeated message. */
  messages: readonly Message[];
  cacheBreakpoints: readonly number[];
  /** The scripted step this request answers. */
  step: AssistantStep;
  /** 0 for the first try of this step, then 1, 2, … */
  attempt: number;
}

export interface RequestAccounting {
  promptTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

export type ProviderReply = RequestAccounting &
  (
    | { kind: "ok"; message: Message; usage: Usage; simulatedMs: number }
    | { kind: "transient"; error: string }
    | { kind: "content-policy"; error: string }
    | { kind: "terminal"; error: string }
    | { kind: "overflow"; error: string }
    | { kind: "interrupted"; error: string }
  );

/**
 * The simulated model: replies come from the scenario script, usage from the exact tokenizer,
 * cache accounting from a per-session prompt cache, and faults as scripted. A request whose prompt
 * exceeds the context window is rejected as an overflow whatever the script says. Slow replies
 * advance simulated time only.
 */
export class SimulatedProvider {
  readonly contextLength: number;
  readonly #caches = new Map<string, PromptCache>();
  readonly #prefixes = new PrefixTrie();
  /** Per content (a string, or the canonical JSON of any other content), then per a key of the other fields: its id and exact tokens. */
  readonly #known = new ContentMaps<MessageInfo>();
  /** Per content, then per the canonical JSON of the other fields: the message's id. */
  readonly #ids = new ContentMaps<number>();
  #nextId = 0;
  /**
   * Each session's last request and its messages' figures. A request repeats most of the previous
   * one at the same positions, and a message written exactly as the one there (the same keys in
   * the same order, the same values) has its figures; comparing costs far less than keying it.
   * The host hands it messages nobody changes afterwards (`sentMessages` in host/turn.ts).
   */
  readonly #lastBySession = new Map<string, { messages: readonly Message[]; infos: readonly MessageInfo[] }>();

  constructor(options: { contextLength: number }) {
    this.contextLength = options.contextLength;
  }

  respond(request: ProviderRequest): ProviderReply {
    const messages = request.messages;
    const keys = new Array<number>(messages.length);
    const tokens = new Array<number>(messages.length);
    const infos = new Array<MessageInfo>(messages.length);
    const last = this.#lastBySession.get(request.session);
    let promptTokens = messages.length > 0 ? REPLY_PRIMING : 0;
    for (let index = 0; index < messages.length; index++) {
      const message = messages[index]!;
      const info =
        last !== undefined && index < last.messages.length && writtenAlike(message, last.messages[index]) ? last.infos[index]! : this.#infoOf(message);
      infos[index] = info;
      keys[index] = info.id;
      tokens[index] = info.tokens;
      promptTokens += info.tokens;
    }
    this.#lastBySession.set(request.session, { messages, infos });
    const rejected = { promptTokens, cacheReadTokens: 0, cacheWriteTokens: 0 };
    const fault = request.step.fault;
    if (promptTokens > this.contextLength) {
      return { ...rejected, kind: "overflow", error: `prompt of ${promptTokens} tokens exceeds the context window of ${this.contextLength}` };
    }
    if (fault?.kind === "transient" && request.attempt < fault.failures) {
      return { ...rejected, kind: "transient", error: "simulated transient error (HTTP 503)" };
    }
    if (fault?.kind === "context-overflow" && request.attempt === 0) {
      return { ...rejected, kind: "overflow", error: "simulated context_length_exceeded (HTTP 413)" };
    }
    if (fault?.kind === "content-policy") return { ...rejected, kind: "content-policy", error: "simulated content-policy block" };
    if (fault?.kind === "terminal") return { ...rejected, kind: "terminal", error: "simulated terminal provider failure" };
    if (fault?.kind === "interrupted") return { ...rejected, kind: "interrupted", error: "simulated interrupted stream" };

    const cache = this.#cacheOf(request.session);
    const { read, write } = cache.account(this.#prefixes.chain(keys, tokens), request.cacheBreakpoints);
    const message = assistantMessage(request.step);
    const completionTokens = completionTokensOf(message);
    const usage: Usage = {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      input_tokens: promptTokens,
      output_tokens: completionTokens,
      cache_read_tokens: read,
      cache_write_tokens: write,
      reasoning_tokens: 0,
    };
    const simulatedMs = fault?.kind === "slow" ? fault.delayMs : 0;
    return { kind: "ok", message, usage, simulatedMs, promptTokens, cacheReadTokens: read, cacheWriteTokens: write };
  }

  /**
   * A message's id and tokens, computed once per distinct message. Keyed first by the content
   * itself: requests share content strings with the transcript, and a string's hash is computed
   * once per string, so a long request costs a lookup per message, not a serialization. Messages
   * that differ only in how their other fields are written (the keys of a tool call in another
   * order) share the id of their canonical JSON, as a digest of it would.
   */
  #infoOf(message: Message): MessageInfo {
    const text = typeof message.content === "string";
    const content = text ? (message.content as string) : canonicalJson({ content: message.content });
    const byRest = this.#known.of(text, content);
    const restKey = restKeyOf(message);
    let info = byRest.get(restKey);
    if (info === undefined) {
      const ids = this.#ids.of(text, content);
      const { content: _content, ...rest } = message;
      const canonicalRest = canonicalJson(rest);
      let id = ids.get(canonicalRest);
      if (id === undefined) ids.set(canonicalRest, (id = this.#nextId++));
      info = { id, tokens: estimateMessageTokensExact(message) };
      byRest.set(restKey, info);
    }
    return info;
  }

  #cacheOf(session: string): PromptCache {
    let cache = this.#caches.get(session);
    if (cache === undefined) {
      cache = new PromptCache();
      this.#caches.set(session, cache);
    }
    return cache;
  }
}

/** Maps keyed by a message's content, text and any other content apart (so no text can pass for the JSON of parts). */
class ContentMaps<T> {
  readonly #byText = new Map<string, Map<string, T>>();
  readonly #byJson = new Map<string, Map<string, T>>();

  of(text: boolean, content: string): Map<string, T> {
    const maps = text ? this.#byText : this.#byJson;
    let map = maps.get(content);
    if (map === undefined) maps.set(content, (map = new Map()));
    return map;
  }
}

const PLAIN_KEYS: ReadonlySet<string> = new Set(["role", "content", "tool_calls", "tool_call_id", "name"]);

/**
 * A key for everything but the content, cheap for a plain message: equal for messages whose other
 * fields are written alike, different for any two that differ (a missing field, null and "" are
 * three things; each part carries its length, so no separator inside a value can shift the parts).
 */
function restKeyOf(message: Message): string {
  for (const key in message) {
    if (!PLAIN_KEYS.has(key)) {
      const { content: _content, ...rest } = message;
      return `j${canonicalJson(rest)}`;
    }
  }
  return `p${part(message.role)}${part(message.tool_call_id)}${part(message.name)}${message.tool_calls === undefined ? "u" : part(JSON.stringify(message.tool_calls))}`;
}

/** Written alike: the same keys in the same order and the same values, so every key and figure of one is the other's. */
function writtenAlike(a: unknown, b: unknown, depth = 0): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object" || depth > 16) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index++) if (!writtenAlike(a[index], b[index], depth + 1)) return false;
    return true;
  }
  if (Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const left = Object.keys(a);
  const right = Object.keys(b);
  if (left.length !== right.length) return false;
  for (let index = 0; index < left.length; index++) {
    const key = left[index]!;
    if (key !== right[index] || !writtenAlike((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}

function part(value: unknown): string {
  if (typeof value === "string") return `s${value.length}:${value}`;
  if (value === undefined) return "u";
  const json = canonicalJson(value);
  return `j${json.length}:${json}`;
}

/** The assistant message a scripted step produces, tool calls exactly as the model emitted them. */
export function assistantMessage(step: AssistantStep): Message {
  const message: Message = { role: "assistant", content: step.content };
  if (step.toolCalls !== undefined && step.toolCalls.length > 0) {
    message.tool_calls = step.toolCalls.map(
      (call): ToolCall => ({ id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } }),
    );
  }
  return message;
}

function completionTokensOf(message: Message): number {
  let count = typeof message.content === "string" ? countTokensExact(message.content) : 0;
  for (const call of message.tool_calls ?? []) count += countTokensExact(call.function.name) + countTokensExact(call.function.arguments);
  return count;
}
