import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ContextEngine, Message, SelectContextOptions, SessionStartInfo, ToolCallOptions, TurnCompleteInfo, Usage } from "ctxbench";
import { TidyEngine, firstWords, textOf } from "./tidy/index.ts";

/**
 * Realistic mutants of the tidy engine: each changes one method in one small way, the kind of bug
 * authors make. `breaks` is what the author of the mutant meant to break (the test checks the
 * reference oracle agrees, so the corpus stays meaningful).
 */
export interface Mutant {
  name: string;
  bug: string;
  /** Rules the change breaks (MUST and SHOULD); empty when it breaks none. */
  breaks: readonly string[];
  /** Seeds to sweep CMP-2 over beyond the default (the batch splitter must fail at each of 1-5). */
  extraSeeds?: readonly number[];
  create(): ContextEngine;
}

/** The engine: keep_last = 5, and a cut inside a batch steps back one message instead of to the batch's assistant. */
class StepsBackOne extends TidyEngine {
  protected override alignToBatch(messages: Message[], cut: number, from: number): number {
    if (cut > from && messages[cut]?.role === "tool") cut -= 1;
    return cut;
  }
}

/** Aligns the cut to the batch's assistant, then slices one past it. */
class OffByOneTail extends TidyEngine {
  protected override keptTail(messages: Message[], cut: number): Message[] {
    return messages.slice(cut + 1);
  }
}

/** Cuts anywhere, then drops results whose call id is no longer among the kept calls: right only while ids are unique. */
class PairsByIdAlone extends TidyEngine {
  protected override alignToBatch(_messages: Message[], cut: number): number {
    return cut;
  }
  protected override keptTail(messages: Message[], cut: number): Message[] {
    const tail = messages.slice(cut);
    const kept = new Set(tail.flatMap((message) => (message.tool_calls ?? []).map((call) => call.id)));
    return tail.filter((message) => message.role !== "tool" || kept.has(String(message.tool_call_id)));
  }
}

/** The summary in the other provider's part format: parts without "type". */
class PartsWithoutType extends TidyEngine {
  protected override summaryMessage(dropped: Message[], next: Message | undefined, focus: string | null): Message {
    return { role: this.summaryRole(next), content: [{ text: this.summaryText(dropped, focus) }] } as unknown as Message;
  }
}

/** The summary's content as an object. */
class ObjectContent extends TidyEngine {
  protected override summaryMessage(dropped: Message[], next: Message | undefined, focus: string | null): Message {
    return { role: this.summaryRole(next), content: { text: this.summaryText(dropped, focus) } } as unknown as Message;
  }
}

/** Builds every assistant message with a tool_calls field, empty when it has none. */
class EmptyToolCalls extends TidyEngine {
  protected override summaryMessage(dropped: Message[], next: Message | undefined, focus: string | null): Message {
    const role = this.summaryRole(next);
    return role === "assistant" ? { role, content: this.summaryText(dropped, focus), tool_calls: [] } : { role, content: this.summaryText(dropped, focus) };
  }
}

/** Always writes the summary as a user message, even right before a user message. */
class SummaryRoleCollides extends TidyEngine {
  protected override summaryRole(): "user" {
    return "user";
  }
}

/** Rebuilds the kept messages without their message_uid. */
class LosesUids extends TidyEngine {
  protected override keptTail(messages: Message[], cut: number): Message[] {
    return messages.slice(cut).map(({ message_uid: _uid, ...rest }) => rest as Message);
  }
}

/** Puts the summary in front of everything, the system prompt included. */
class SummaryBeforeSystem extends TidyEngine {
  override compress(messages: Message[], current?: number | null, focus?: string | null): Message[] {
    const output = super.compress(messages, current, focus);
    if (output.length === messages.length || output[0]?.role !== "system") return output;
    return [output[1]!, output[0]!, ...output.slice(2)];
  }
}

/** Adds a note when there is nothing old enough to fold, so the no-op answer is bigger than its input. */
class NotesTheNoOp extends TidyEngine {
  protected override unchanged(messages: Message[]): Message[] {
    this.compression_count += 1;
    return [...messages, { role: "assistant", content: "[tidy: nothing old enough to fold yet]" }];
  }
}

/** Returns early when there is nothing to fold, without counting the call. */
class SkipsCountOnNoOp extends TidyEngine {
  protected override unchanged(messages: Message[]): Message[] {
    return [...messages];
  }
}

/** Names the summary after the last message's uid: the current user message has none before the turn-start flush. */
class NeedsCurrentUid extends TidyEngine {
  protected override summaryText(dropped: Message[], focus: string | null): string {
    return `${super.summaryText(dropped, focus)}\n(up to ${this.lastInput.at(-1)!.message_uid!.slice(0, 8)})`;
  }
  private lastInput: Message[] = [];
  override compress(messages: Message[], current?: number | null, focus?: string | null): Message[] {
    this.lastInput = messages;
    return super.compress(messages, current, focus);
  }
}

/** Keys dropped messages by uid to count distinct ones: a row without a uid (legacy, or the current user message) throws. */
class KeysByUid extends TidyEngine {
  protected override summaryText(dropped: Message[], focus: string | null): string {
    const distinct = new Set(dropped.map((message) => message.message_uid!.toLowerCase()));
    return `${super.summaryText(dropped, focus)}\n(${distinct.size} distinct messages)`;
  }
  override compress(messages: Message[], current?: number | null, focus?: string | null): Message[] {
    for (const message of messages) void message.message_uid!.toLowerCase();
    return super.compress(messages, current, focus);
  }
}

/** Keeps only the first row of each uid in the tail, so an edited copy re-appended later is lost. */
class FirstRowPerUid extends TidyEngine {
  protected override keptTail(messages: Message[], cut: number): Message[] {
    const seen = new Set<string>();
    return messages.slice(cut).filter((message) => {
      if (typeof message.message_uid !== "string") return true;
      if (seen.has(message.message_uid)) return false;
      seen.add(message.message_uid);
      return true;
    });
  }
  override compress(messages: Message[], current?: number | null, focus?: string | null): Message[] {
    const seen = new Set<string>();
    const firstRows = messages.filter((message) => {
      if (typeof message.message_uid !== "string") return true;
      if (seen.has(message.message_uid)) return false;
      seen.add(message.message_uid);
      return true;
    });
    return super.compress(firstRows, current, focus);
  }
}

/** Looks the focus topic up in a table it never filled. */
class FocusTableCrash extends TidyEngine {
  private readonly hints: Record<string, string[]> = {};
  protected override summaryText(dropped: Message[], focus: string | null): string {
    if (focus) this.hints[focus]!.push(`${dropped.length}`);
    return super.summaryText(dropped, focus);
  }
}

/** Trims huge tool outputs in conversation_messages too, "to keep them consistent". */
class TrimsConversationToo extends TidyEngine {
  override select_context(request_messages: Message[], options?: SelectContextOptions): Message[] | null {
    const selected = super.select_context(request_messages, options);
    if (selected !== null) for (const message of options?.conversation_messages ?? []) if (this.isHuge(message)) message.content = this.trimmed(message).content ?? null;
    return selected;
  }
}

/** Marks the incoming message as seen. */
class MarksIncoming extends TidyEngine {
  override select_context(request_messages: Message[], options?: SelectContextOptions): Message[] | null {
    const selected = super.select_context(request_messages, options);
    if (selected !== null && options?.incoming_message) options.incoming_message["tidy_seen"] = true;
    return selected;
  }
}

/** Trims request_messages in place and returns nothing: the live request is the engine's to edit (allowed). */
class TrimsRequestInPlace extends TidyEngine {
  override select_context(request_messages: Message[]): null {
    for (const [index, message] of request_messages.entries()) if (this.isHuge(message)) request_messages[index] = this.trimmed(message);
    return null;
  }
}

/** Trims huge outputs in compress's own input before folding: the input is a private snapshot, so this is allowed. */
class TrimsCompressInput extends TidyEngine {
  override compress(messages: Message[], current?: number | null, focus?: string | null): Message[] {
    for (const [index, message] of messages.entries()) if (this.isHuge(message)) messages[index] = this.trimmed(message);
    return super.compress(messages, current, focus);
  }
}

/** Drops its own notes from the transcript it is shown, in place, before indexing. */
class PrunesTurnTranscript extends TidyEngine {
  override on_turn_complete(messages: Message[], usage: Usage | null, info?: TurnCompleteInfo): void {
    for (let index = messages.length - 1; index >= 0; index--) if (messages[index]!.role === "tool") messages.splice(index, 1);
    super.on_turn_complete(messages, usage, info);
  }
}

/** Reads the usage without a null check. */
class NullUsageThrows extends TidyEngine {
  override on_turn_complete(messages: Message[], usage: Usage | null, info?: TurnCompleteInfo): void {
    super.on_turn_complete(messages, usage, info);
    this.lastTurnTokens = usage!.prompt_tokens;
  }
}

/** Returns the result object itself instead of its JSON. */
class ToolReturnsObject extends TidyEngine {
  override handle_tool_call(name: string, args: Record<string, unknown>, options?: ToolCallOptions): string {
    if (name !== "tidy_search") return JSON.stringify({ error: `unknown tool ${name}` });
    return this.search(typeof args?.["query"] === "string" ? args["query"] : "", options) as unknown as string;
  }
}

/** Resets the token counters but forgets compression_count. */
class ResetKeepsCount extends TidyEngine {
  override on_session_reset(): void {
    this.last_prompt_tokens = 0;
    this.last_completion_tokens = 0;
    this.last_total_tokens = 0;
  }
}

/** Hands every agent the same engine. */
class CloneIsSelf extends TidyEngine {
  override clone_for_agent(): ContextEngine {
    return this;
  }
}

/** Remembers the previous summary on the engine and carries it into the next, whatever the session. */
class CarriesLastSummary extends TidyEngine {
  private previous: string | null = null;
  protected override summaryText(dropped: Message[], focus: string | null): string {
    const text = super.summaryText(dropped, focus);
    const carried = this.previous;
    this.previous = dropped.filter((message) => message.role === "user").map((message) => firstWords(textOf(message), 30)).at(-1) ?? null;
    return carried === null ? text : `${text}\n(before that: ${carried})`;
  }
}

/** Keeps a copy of every pass in its home directory as it computes it. */
class WritesBeforeCommit extends TidyEngine {
  private home: string | null = null;
  override on_session_start(session_id: string, info?: SessionStartInfo): void {
    super.on_session_start(session_id, info);
    this.home = info?.home ?? null;
  }
  override compress(messages: Message[], current?: number | null, focus?: string | null): Message[] {
    const output = super.compress(messages, current, focus);
    if (this.home) writeFileSync(join(this.home, `tidy-pass-${this.compression_count}.json`), JSON.stringify(output));
    return output;
  }
}

export const MUTANTS: readonly Mutant[] = [
  { name: "steps-back-one", bug: "keep_last = 5; a cut inside a batch steps back one message, not to the batch's assistant (the issue's engine)", breaks: ["CMP-2"], extraSeeds: [1, 2, 3, 4, 5], create: () => new StepsBackOne() },
  { name: "off-by-one-tail", bug: "slices the tail one past the aligned cut", breaks: ["CMP-2", "CMP-5"], create: () => new OffByOneTail() },
  { name: "pairs-by-id-alone", bug: "cuts anywhere and keeps results whose id a kept call has", breaks: ["CMP-2", "TCU-3"], create: () => new PairsByIdAlone() },
  { name: "parts-without-type", bug: "summary content as [{text}] (parts without type)", breaks: ["CMP-1"], create: () => new PartsWithoutType() },
  { name: "object-content", bug: "summary content as {text} (an object)", breaks: ["CMP-1"], create: () => new ObjectContent() },
  { name: "empty-tool-calls", bug: "an assistant summary with tool_calls: []", breaks: ["CMP-2"], create: () => new EmptyToolCalls() },
  { name: "summary-role-collides", bug: "the summary is always a user message, even before a user message", breaks: [], create: () => new SummaryRoleCollides() },
  { name: "loses-uids", bug: "rebuilds kept messages without message_uid", breaks: ["CMP-8"], create: () => new LosesUids() },
  { name: "summary-before-system", bug: "puts the summary before the system prompt", breaks: ["CMP-3"], create: () => new SummaryBeforeSystem() },
  { name: "notes-the-no-op", bug: "adds a note to the input when there is nothing to fold", breaks: ["CMP-4"], create: () => new NotesTheNoOp() },
  { name: "skips-count-on-no-op", bug: "the nothing-to-fold path does not count the call", breaks: ["ABC-5"], create: () => new SkipsCountOnNoOp() },
  { name: "needs-current-uid", bug: "names the summary after the last message's uid", breaks: ["CMP-9"], create: () => new NeedsCurrentUid() },
  { name: "keys-by-uid", bug: "reads message_uid of every row without a check", breaks: ["UID-2", "CMP-9"], create: () => new KeysByUid() },
  { name: "first-row-per-uid", bug: "keeps the first row of each uid", breaks: ["UID-7", "CMP-5"], create: () => new FirstRowPerUid() },
  { name: "focus-table-crash", bug: "looks the focus topic up in a table it never filled", breaks: ["CMP-6"], create: () => new FocusTableCrash() },
  { name: "trims-compress-input", bug: "trims huge outputs in compress's own input (allowed)", breaks: [], create: () => new TrimsCompressInput() },
  { name: "trims-conversation-too", bug: "trims conversation_messages in place as well", breaks: ["SEL-6"], create: () => new TrimsConversationToo() },
  { name: "marks-incoming", bug: "marks incoming_message as seen", breaks: ["SEL-6"], create: () => new MarksIncoming() },
  { name: "trims-request-in-place", bug: "trims request_messages in place and returns nothing (allowed)", breaks: [], create: () => new TrimsRequestInPlace() },
  { name: "prunes-turn-transcript", bug: "removes tool messages from the transcript on_turn_complete is shown", breaks: ["OTC-4"], create: () => new PrunesTurnTranscript() },
  { name: "null-usage-throws", bug: "reads usage.prompt_tokens without a null check", breaks: ["OTC-5"], create: () => new NullUsageThrows() },
  { name: "tool-returns-object", bug: "handle_tool_call returns the result object, not its JSON", breaks: ["TOOL-2"], create: () => new ToolReturnsObject() },
  { name: "reset-keeps-count", bug: "on_session_reset forgets compression_count", breaks: ["LIFE-2"], create: () => new ResetKeepsCount() },
  { name: "clone-is-self", bug: "clone_for_agent returns the engine itself", breaks: ["REG-6"], create: () => new CloneIsSelf() },
  { name: "carries-last-summary", bug: "carries the previous pass's last ask into the next summary, from any session", breaks: ["THR-2"], create: () => new CarriesLastSummary() },
  { name: "writes-before-commit", bug: "writes each pass to its home directory while computing it", breaks: ["THR-4"], create: () => new WritesBeforeCommit() },
];
