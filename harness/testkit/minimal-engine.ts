import { ContextEngine } from "../contract/context-engine.ts";
import type { CompressOptions, Message, Usage } from "../contract/types.ts";

export interface MinimalEngineOptions {
  name?: string;
  /** Messages kept after the system prompt and a summary line (default 2). */
  keep?: number;
  /** False: never asks for compaction, and compress() hands its input back uncounted (a ceiling, an inheriting baseline). */
  compacts?: boolean;
}

/**
 * The one minimal engine of ctxbench's tests and benchmarks: it copies usage into its counters,
 * asks for compaction at its threshold, and compresses to the system prompt, a summary line and
 * the last `keep` messages (never starting on a tool result). It inherits every optional hook, so
 * the host must treat it exactly like no engine on every request. It remembers each compress input.
 */
export class MinimalEngine extends ContextEngine {
  readonly name: string;
  keep: number;
  readonly compacts: boolean;
  compressCalls: Message[][] = [];

  constructor(options: MinimalEngineOptions = {}) {
    super();
    this.name = options.name ?? "minimal";
    this.keep = options.keep ?? 2;
    this.compacts = options.compacts ?? true;
  }

  update_from_response(usage: Usage): void {
    this.last_prompt_tokens = usage.prompt_tokens;
    this.last_completion_tokens = usage.completion_tokens;
    this.last_total_tokens = usage.total_tokens;
  }

  should_compress(prompt_tokens?: number): boolean {
    return this.compacts && (prompt_tokens ?? this.last_prompt_tokens) >= this.threshold_tokens;
  }

  compress(messages: Message[], _current?: number | null, _focus?: string | null, _options?: CompressOptions): Message[] | Promise<Message[]> {
    this.compressCalls.push(messages);
    if (!this.compacts) return messages;
    this.compression_count++;
    const system = messages[0]?.role === "system" ? [messages[0]] : [];
    let tail = messages.slice(Math.max(system.length, messages.length - this.keep));
    while (tail[0]?.role === "tool") tail = tail.slice(1);
    return [...system, { role: "user", content: "[summary of earlier turns]" }, ...tail];
  }
}
