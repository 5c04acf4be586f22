import { ContextEngine, estimateTokensRough, type Message, type Usage } from "ctxbench";

/**
 * __NAME__: a starting point that certifies. It drops the oldest whole turns (a user message and
 * everything up to the next one) until the conversation fits in half the threshold, and always
 * keeps the leading system prompt and the latest turn. Cutting only at user messages never
 * separates a tool call from its results. Replace compress() with your own compaction.
 */
export class __CLASS__ extends ContextEngine {
  readonly name = "__NAME__";

  update_from_response(usage: Usage): void {
    this.last_prompt_tokens = count(usage.prompt_tokens);
    this.last_completion_tokens = count(usage.completion_tokens);
    this.last_total_tokens = usage.total_tokens === undefined ? this.last_prompt_tokens + this.last_completion_tokens : count(usage.total_tokens);
  }

  should_compress(prompt_tokens?: number): boolean {
    const tokens = typeof prompt_tokens === "number" && Number.isFinite(prompt_tokens) ? prompt_tokens : this.last_prompt_tokens;
    return this.threshold_tokens > 0 && tokens >= this.threshold_tokens;
  }

  compress(messages: Message[]): Message[] {
    this.compression_count += 1;
    const head = messages[0]?.role === "system" ? 1 : 0;
    const turnStarts = messages.flatMap((message, index) => (index >= head && message.role === "user" ? [index] : []));
    const budget = this.threshold_tokens > 0 ? Math.floor(this.threshold_tokens / 2) : Math.floor(estimateTokensRough(messages) / 2);
    // Oldest first: cut at the first turn start that leaves the rest under budget, or at the latest turn.
    for (const start of turnStarts) {
      const kept = [...messages.slice(0, head), ...messages.slice(start)];
      if (estimateTokensRough(kept) <= budget || start === turnStarts.at(-1)) return start === head ? messages : kept;
    }
    return messages;
  }
}

/** A usage field as a token count: a non-negative integer, 0 when missing or malformed. */
function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}
