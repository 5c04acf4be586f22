import {
  ContextEngine,
  estimateTokensRough,
  type Message,
  type SelectContextOptions,
  type ToolCallOptions,
  type ToolSchema,
  type TurnCompleteInfo,
  type Usage,
} from "ctxbench";

/** The text of a message, whatever its content shape. */
export function textOf(message: Message | undefined): string {
  const content = message?.content;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((part) => ("text" in part && typeof part.text === "string" ? part.text : "")).join("\n");
  return "";
}

export function firstWords(text: string, count: number): string {
  const words = text.split(/\s+/).filter(Boolean);
  return words.length <= count ? words.join(" ") : `${words.slice(0, count).join(" ")} …`;
}

/**
 * tidy: keeps the system prompt and the last `keep_last` messages (whole tool batches, always the
 * latest user message), folds everything older into one summary message, and trims huge tool
 * outputs for the provider. Written the way a first engine is written: small methods, no magic.
 */
export class TidyEngine extends ContextEngine {
  name = "tidy";
  /** Messages kept verbatim at the end of the conversation. */
  keep_last = 5;
  /** select_context trims tool outputs longer than this for the provider. */
  trim_over = 2000;
  /** What tidy_search looks through: the user lines of each session's last finished turn. */
  protected notes = new Map<string, string[]>();
  protected lastTurnTokens = 0;

  update_from_response(usage: Usage): void {
    this.last_prompt_tokens = usage.prompt_tokens;
    this.last_completion_tokens = usage.completion_tokens;
    this.last_total_tokens = usage.total_tokens;
  }

  should_compress(prompt_tokens?: number): boolean {
    const tokens = prompt_tokens ?? this.last_prompt_tokens;
    return this.threshold_tokens > 0 && tokens >= this.threshold_tokens;
  }

  compress(messages: Message[], _current_tokens?: number | null, focus_topic?: string | null): Message[] {
    const head = messages[0]?.role === "system" ? [messages[0]] : [];
    const cut = this.tailStart(messages, head.length);
    if (cut <= head.length + 1) return this.unchanged(messages);
    const dropped = messages.slice(head.length, cut);
    const tail = this.keptTail(messages, cut);
    const output = [...head, this.summaryMessage(dropped, tail[0], focus_topic ?? null), ...tail];
    // Never hand back more than we were given: a summary of very little can be longer than it.
    if (estimateTokensRough(output) >= estimateTokensRough(messages)) return this.unchanged(messages);
    this.compression_count += 1;
    return output;
  }

  /** Nothing worth folding: the input as it is (still a completed compress call). */
  protected unchanged(messages: Message[]): Message[] {
    this.compression_count += 1;
    return [...messages];
  }

  /** Where the kept tail starts: the last keep_last messages, moved back to the latest user message and to a whole tool batch. */
  protected tailStart(messages: Message[], from: number): number {
    let cut = Math.max(from, messages.length - this.keep_last);
    const latestUser = messages.findLastIndex((message) => message.role === "user");
    if (latestUser >= from && latestUser < cut) cut = latestUser;
    return this.alignToBatch(messages, cut, from);
  }

  /** A tail must not start inside a batch of tool results: step back to the assistant that made the calls. */
  protected alignToBatch(messages: Message[], cut: number, from: number): number {
    while (cut > from && messages[cut]?.role === "tool") cut -= 1;
    return cut;
  }

  protected keptTail(messages: Message[], cut: number): Message[] {
    return messages.slice(cut);
  }

  protected summaryMessage(dropped: Message[], next: Message | undefined, focus: string | null): Message {
    return { role: this.summaryRole(next), content: this.summaryText(dropped, focus) };
  }

  /** Keep the roles alternating: right before a user message the summary speaks as the assistant. */
  protected summaryRole(next: Message | undefined): "user" | "assistant" {
    return next?.role === "user" ? "assistant" : "user";
  }

  protected summaryText(dropped: Message[], focus: string | null): string {
    const asks = dropped.filter((message) => message.role === "user").map((message) => `- asked: ${firstWords(textOf(message), 12)}`);
    const lines = [`[tidy: summary of ${dropped.length} earlier messages]`, ...asks.slice(-6)];
    if (focus) {
      const about = dropped.filter((message) => textOf(message).toLowerCase().includes(focus.toLowerCase()));
      lines.push(...about.slice(-4).map((message) => `- on ${focus}: ${firstWords(textOf(message), 30)}`));
    }
    return lines.join("\n");
  }

  /** Huge tool outputs cost the provider more than they tell it: send a trimmed copy. */
  override select_context(request_messages: Message[], _options?: SelectContextOptions): Message[] | null {
    if (!request_messages.some((message) => this.isHuge(message))) return null;
    return request_messages.map((message) => (this.isHuge(message) ? this.trimmed(message) : message));
  }

  protected isHuge(message: Message): boolean {
    return message.role === "tool" && typeof message.content === "string" && message.content.length > this.trim_over;
  }

  protected trimmed(message: Message): Message {
    const content = message.content as string;
    return { ...message, content: `${content.slice(0, this.trim_over)}\n[tidy: ${content.length - this.trim_over} characters trimmed]` };
  }

  override on_turn_complete(messages: Message[], usage: Usage | null, info?: TurnCompleteInfo): void {
    this.notes.set(this.sessionOf(info), messages.filter((message) => message.role === "user").map((message) => firstWords(textOf(message), 40)));
    this.lastTurnTokens = usage?.prompt_tokens ?? 0;
  }

  protected sessionOf(info: TurnCompleteInfo | undefined): string {
    return info?.turn_id?.split(":")[0] ?? "default";
  }

  override get_tool_schemas(): ToolSchema[] {
    return [
      {
        name: "tidy_search",
        description: "Search what the user asked earlier in this conversation, including turns folded into a summary.",
        parameters: { type: "object", properties: { query: { type: "string", description: "Words to look for" } }, required: ["query"] },
      },
    ];
  }

  override handle_tool_call(name: string, args: Record<string, unknown>, options?: ToolCallOptions): string {
    if (name !== "tidy_search") return JSON.stringify({ error: `unknown tool ${name}` });
    return JSON.stringify(this.search(typeof args?.["query"] === "string" ? args["query"] : "", options));
  }

  protected search(query: string, options?: ToolCallOptions): { results: string[] } {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    const lines = (options?.messages ?? []).filter((message) => message.role === "user").map((message) => textOf(message));
    return { results: words.length === 0 ? [] : lines.filter((line) => words.every((word) => line.toLowerCase().includes(word))).slice(0, 5) };
  }
}
