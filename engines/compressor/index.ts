import { ContextEngine, type ContextEngineInit } from "../../harness/contract/context-engine.ts";
import { estimateMessageTokensRough, estimateTokensRough } from "../../harness/contract/tokens.ts";
import type {
  CompressInfo,
  CompressOptions,
  EngineStatus,
  MaybePromise,
  Message,
  SessionStartInfo,
  UpdateModelOptions,
  Usage,
} from "../../harness/contract/types.ts";
import { promptTokensArg, recordUsage, thresholdFor } from "../shared/budget.ts";
import { ExtractiveSummarizer } from "../shared/extractive-summarizer.ts";
import { messageText } from "../shared/message-text.ts";
import type { Summarizer, SummaryRequest } from "../shared/summarizer.ts";
import { alignCutToUnit, pairToolCalls, repairToolPairs } from "../shared/tool-pairs.ts";
import { carrierMessage, mergeCarrierInto, mintCarrierUid, placeCarrier } from "./carrier.ts";
import { planCompaction, type Plan } from "./plan.ts";
import { clearLargeResults, dedupeToolResults, shrinkArguments } from "./prune.ts";
import { ThrashGuard } from "./thrash-guard.ts";

/** The bundled summarizer: the default, and the fallback when a plugged-in one fails. It keeps no state. */
const FALLBACK_SUMMARIZER = new ExtractiveSummarizer();

export interface CompressorSettings extends ContextEngineInit {
  /** Writes the summary of the compacted middle; the bundled one is deterministic and extractive. */
  summarizer?: Summarizer;
  /** Non-system messages protected at the head until the first compaction (default 3). */
  protect_first_n?: number;
  /** Messages whose tool output is never pruned; also bounds the tail's message floor (default 20). */
  protect_last_n?: number;
  /** The tail's token budget as a share of the threshold (default 0.2, clamped to 0.05–0.6). */
  summary_target_ratio?: number;
  /** Tool outputs shorter than this are never pruned or deduplicated (default 200 characters). */
  prune_min_chars?: number;
  /** Cap on the summary's size; default 5% of the window, between 128 and 10,000 tokens. */
  max_summary_tokens?: number;
}

/**
 * The default engine. Each pass prunes old tool output, keeps the head (system prompt, and the first
 * turns until the first compaction) and a token-budgeted tail, and replaces the middle with one
 * summary that later passes update rather than stack. It keeps no per-session state between calls:
 * earlier summaries are recognised in the messages themselves, so one instance serves concurrent
 * sessions. It inherits `select_context` and `on_turn_complete`, so the host skips them (SEL-1).
 */
export class CompressorEngine extends ContextEngine {
  readonly name = "compressor";
  readonly #settings: CompressorSettings;
  readonly #summarizer: Summarizer;
  readonly #guard = new ThrashGuard();
  readonly #tailRatio: number;
  readonly #pruneMinChars: number;
  readonly #maxSummaryTokens: number | null;

  constructor(settings: CompressorSettings = {}) {
    super(settings);
    this.#settings = { ...settings };
    this.#summarizer = settings.summarizer ?? FALLBACK_SUMMARIZER;
    this.protect_first_n = settings.protect_first_n ?? 3;
    this.protect_last_n = settings.protect_last_n ?? 20;
    this.#tailRatio = Math.min(0.6, Math.max(0.05, settings.summary_target_ratio ?? 0.2));
    this.#pruneMinChars = Math.max(1, settings.prune_min_chars ?? 200);
    this.#maxSummaryTokens = settings.max_summary_tokens ?? null;
    if (settings.context_length !== undefined) this.threshold_tokens = thresholdFor(settings.context_length, this.threshold_percent);
  }

  override update_from_response(usage: Usage): void {
    const counts = recordUsage(this, usage);
    this.#guard.onUsage(counts.prompt, this.threshold_tokens);
  }

  override should_compress(prompt_tokens?: number): boolean {
    if (this.threshold_tokens <= 0 || this.#guard.blocked) return false;
    return promptTokensArg(prompt_tokens, this.last_prompt_tokens) >= this.threshold_tokens;
  }

  override should_compress_info(): CompressInfo {
    return this.#guard.info();
  }

  override compress(
    messages: Message[],
    _current_tokens?: number | null,
    focus_topic?: string | null,
    options: CompressOptions = {},
  ): MaybePromise<Message[]> {
    const signal = options.signal;
    signal?.throwIfAborted();
    // Without a known window, aim at half the input.
    const threshold = this.threshold_tokens > 0 ? this.threshold_tokens : Math.max(1, Math.floor(estimateTokensRough(messages) / 2));
    const plan = planCompaction(messages, {
      threshold,
      contextLength: this.context_length,
      protectFirstN: this.protect_first_n,
      protectLastN: this.protect_last_n,
      tailRatio: this.#tailRatio,
      pruneMinChars: this.#pruneMinChars,
      maxSummaryTokens: this.#maxSummaryTokens,
    });
    signal?.throwIfAborted();
    if (plan.headEnd === plan.tailStart && plan.previousSummary === null) {
      return this.#finish(messages, plan.inputFloor, repairToolPairs(plan.work));
    }
    const request: SummaryRequest = {
      messages: plan.list.slice(plan.headEnd, plan.tailStart),
      previousSummary: plan.previousSummary,
      previousSummaryAt: Math.max(0, plan.previousAt - plan.headEnd),
      focusTopic: focus_topic ?? null,
      budgetTokens: plan.summaryBudget,
      ...(signal ? { signal } : {}),
    };
    const complete = (text: unknown) => {
      signal?.throwIfAborted();
      return this.#finish(messages, plan.inputFloor, assemble(plan, this.#usable(text, request)));
    };
    const fallback = (error: unknown) => {
      signal?.throwIfAborted();
      if (this.#summarizer === FALLBACK_SUMMARIZER) throw error;
      return complete(FALLBACK_SUMMARIZER.summarize(request));
    };
    let summary: MaybePromise<string>;
    try {
      summary = this.#summarizer.summarize(request);
    } catch (error) {
      return fallback(error);
    }
    return isThenable(summary) ? Promise.resolve(summary).then(complete, fallback) : complete(summary);
  }

  /**
   * A summary to use: a plugged-in summarizer that fails or returns nothing gets the bundled
   * extractive one as a bounded, deterministic fallback, never an empty summary.
   */
  #usable(text: unknown, request: SummaryRequest): string {
    if (typeof text === "string" && text.trim() !== "") return text;
    return this.#summarizer === FALLBACK_SUMMARIZER ? "" : FALLBACK_SUMMARIZER.summarize(request);
  }

  /**
   * A completed pass: never larger than its input (CMP-4), counted, and judged for progress. The
   * input is estimated in full only when the output is larger than the part of it already measured.
   */
  #finish(input: Message[], inputFloor: number, output: Message[]): Message[] {
    let result = output;
    let outputTokens = estimateTokensRough(result);
    if (outputTokens > inputFloor) {
      const inputTokens = estimateTokensRough(input);
      if (outputTokens > inputTokens) {
        result = input.slice();
        outputTokens = inputTokens;
      }
    }
    this.compression_count += 1;
    this.#guard.afterPass(outputTokens, this.threshold_tokens);
    return result;
  }

  override prune_tool_results_only(messages: Message[], _current_tokens?: number): [Message[], number] {
    const work = messages.slice();
    const pairing = pairToolCalls(work);
    const protectFrom = alignCutToUnit(pairing, work.length - Math.max(0, this.protect_last_n), "earlier");
    const count =
      dedupeToolResults(work, this.#pruneMinChars) +
      clearLargeResults(work, pairing, 0, protectFrom, this.#pruneMinChars) +
      shrinkArguments(work, 0, protectFrom, 500, 200);
    return count === 0 ? [messages, 0] : [work, count];
  }

  override has_content_to_compress(messages: Message[]): boolean {
    let conversational = 0;
    for (const message of messages) if (message.role !== "system") conversational++;
    return conversational > 3;
  }

  override on_session_start(_session_id: string, info?: SessionStartInfo): void {
    this.#guard.reset();
    if (info?.context_length !== undefined && info.context_length > 0 && this.context_length === 0) {
      this.context_length = Math.floor(info.context_length);
      this.threshold_tokens = thresholdFor(this.context_length, this.threshold_percent);
    }
  }

  override on_session_reset(): void {
    super.on_session_reset();
    this.#guard.reset();
  }

  override update_model(options: UpdateModelOptions): void {
    this.context_length = Math.max(0, Math.floor(options.context_length) || 0);
    this.threshold_tokens = thresholdFor(this.context_length, this.threshold_percent);
    this.#guard.reset();
  }

  override get_status(): EngineStatus {
    return { ...super.get_status(), ineffective_compressions: this.#guard.streak, compaction_blocked: this.#guard.blocked };
  }

  /** Same configuration and summarizer, fresh budget state and counters (REG-6). */
  override clone_for_agent(): CompressorEngine {
    const clone = new CompressorEngine({ ...this.#settings, summarizer: this.#summarizer, threshold_percent: this.threshold_percent });
    clone.protect_first_n = this.protect_first_n;
    clone.protect_last_n = this.protect_last_n;
    clone.context_length = this.context_length;
    clone.threshold_tokens = this.threshold_tokens;
    return clone;
  }
}

/**
 * Head, summary carrier, tail; the carrier's role keeps the alternation valid. When the roles
 * around it would force a merge into the first tail message (changing a real message, often the
 * current ask), the tail first takes back up to two cheap units so the carrier can stand alone.
 */
function assemble(plan: Plan, text: string): Message[] {
  const body = text.trim() === "" ? `(${plan.tailStart - plan.headEnd} earlier messages were compacted; no details could be extracted.)` : text.trim();
  const uid = plan.carrierUid ?? mintCarrierUid(carrierSeed(plan));
  const first = placeAt(plan, plan.tailStart, body, uid);
  if (!first.merged) return first.output;
  let start = plan.tailStart;
  let added = 0;
  for (let step = 0; step < 2 && start > plan.headEnd; step++) {
    const unit = plan.pairing.units[plan.pairing.unitOf[start - 1] as number] as { start: number; end: number };
    if (unit.start < plan.headEnd) break;
    for (let i = unit.start; i < start; i++) added += estimateMessageTokensRough(plan.work[i] as Message);
    if (added > plan.extensionAllowance) break;
    start = unit.start;
    const attempt = placeAt(plan, start, body, uid);
    if (!attempt.merged && estimateTokensRough(attempt.output) <= plan.inputFloor) return attempt.output;
  }
  return first.output;
}

function placeAt(plan: Plan, tailStart: number, body: string, uid: string): { output: Message[]; merged: boolean } {
  const head = plan.work.slice(0, plan.headEnd);
  const tail = plan.work.slice(tailStart);
  const before = head.length > 0 ? (head[head.length - 1] as Message).role : null;
  const after = tail.length > 0 ? (tail[0] as Message).role : null;
  const userSurvives = head.some((m) => m.role === "user") || tail.some((m) => m.role === "user");
  const placement = placeCarrier(before, after, userSurvives);
  if (placement.kind === "merge") {
    return { output: repairToolPairs([...head, mergeCarrierInto(tail[0] as Message, body, uid), ...tail.slice(1)]), merged: true };
  }
  return { output: repairToolPairs([...head, carrierMessage(placement.role, body, uid), ...tail]), merged: false };
}

/** What the first summary replaces names it: the same history gives the same carrier uid. */
function carrierSeed(plan: Plan): string {
  const first = plan.list[plan.headEnd];
  const identity = first ? (typeof first.message_uid === "string" ? first.message_uid : messageText(first).slice(0, 200)) : "";
  return `${identity}|${plan.tailStart - plan.headEnd}`;
}

function isThenable<T>(value: MaybePromise<T>): value is Promise<T> {
  return value !== null && typeof value === "object" && typeof (value as { then?: unknown }).then === "function";
}

export interface EngineRegistry {
  register_context_engine(engine: ContextEngine): void;
}

export function register(ctx: EngineRegistry): void {
  ctx.register_context_engine(new CompressorEngine());
}

export default CompressorEngine;
