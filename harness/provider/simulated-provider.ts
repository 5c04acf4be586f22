import { sha256Hex } from "../util/sha256.ts";
import { countTokensExact, estimateMessageTokensExact } from "../contract/tokens-exact.ts";
import type { Message, ToolCall, Usage } from "../contract/types.ts";
import { canonicalJson } from "../trace/canonical-json.ts";
import type { AssistantStep } from "../../scenarios/format.ts";
import { PrefixTrie, PromptCache } from "./prompt-cache.ts";

interface MessageInfo {
  digest: string;
  tokens: number;
}

/** Tokens the chat format adds to prime the reply (counted once per request). */
const REPLY_PRIMING = 3;

export interface ProviderRequest {
  session: string;
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
  /** Per content string, then per the message's other fields: its digest and exact tokens. */
  readonly #known = new Map<string, Map<string, MessageInfo>>();

  constructor(options: { contextLength: number }) {
    this.contextLength = options.contextLength;
  }

  respond(request: ProviderRequest): ProviderReply {
    const keys: string[] = [];
    const tokens: number[] = [];
    let promptTokens = request.messages.length > 0 ? REPLY_PRIMING : 0;
    for (const message of request.messages) {
      const info = this.#infoOf(message);
      keys.push(info.digest);
      tokens.push(info.tokens);
      promptTokens += info.tokens;
    }
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
   * A message's digest and tokens, computed once per distinct message. Keyed first by the content
   * string itself: requests share content strings with the transcript, and a string's hash is
   * computed once per string, so a long request costs a lookup per message, not a re-serialization.
   */
  #infoOf(message: Message): MessageInfo {
    const content = typeof message.content === "string" ? message.content : `\u0000${canonicalJson({ content: message.content })}`;
    const restKey = restKeyOf(message);
    let byRest = this.#known.get(content);
    if (byRest === undefined) {
      byRest = new Map();
      this.#known.set(content, byRest);
    }
    let info = byRest.get(restKey);
    if (info === undefined) {
      info = { digest: sha256Hex(canonicalJson(message)), tokens: estimateMessageTokensExact(message) };
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

const PLAIN_KEYS: ReadonlySet<string> = new Set(["role", "content", "tool_calls", "tool_call_id", "name"]);

/**
 * A key for everything but the content. It only has to tell different messages apart (a miss just
 * recomputes the same digest), so a plain message gets a cheap native one.
 */
function restKeyOf(message: Message): string {
  for (const key in message) {
    if (!PLAIN_KEYS.has(key)) {
      const { content: _content, ...rest } = message;
      return `\u0002${canonicalJson(rest)}`;
    }
  }
  const calls = message.tool_calls === undefined ? "" : JSON.stringify(message.tool_calls);
  return `${message.role}\u0001${message.tool_call_id ?? ""}\u0001${message.name ?? ""}\u0001${calls}`;
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
