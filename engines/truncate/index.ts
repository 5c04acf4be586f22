import { ContextEngine, type ContextEngineInit } from "../../harness/contract/context-engine.ts";
import { estimateMessageTokensRough, estimateTokensRough } from "../../harness/contract/tokens.ts";
import type { CompressOptions, Message, UpdateModelOptions, Usage } from "../../harness/contract/types.ts";
import { promptTokensArg, readUsage, thresholdFor } from "../shared/budget.ts";
import { pairToolCalls, repairToolPairs, type ToolUnit } from "../shared/tool-pairs.ts";

export interface TruncateSettings extends ContextEngineInit {
  /** The output's budget as a share of the threshold (default 0.5, clamped to 0.1–1). */
  target_ratio?: number;
}

/**
 * The baseline engine: drops the oldest turns until the list fits, keeping the leading system
 * messages, the latest user message and whole tool-call units. No summary, no state between calls.
 */
export class TruncateEngine extends ContextEngine {
  readonly name = "truncate";
  readonly #targetRatio: number;

  constructor(settings: TruncateSettings = {}) {
    super(settings);
    this.#targetRatio = Math.min(1, Math.max(0.1, settings.target_ratio ?? 0.5));
    if (settings.context_length !== undefined) this.threshold_tokens = thresholdFor(settings.context_length, this.threshold_percent);
  }

  override update_from_response(usage: Usage): void {
    const counts = readUsage(usage);
    this.last_prompt_tokens = counts.prompt;
    this.last_completion_tokens = counts.completion;
    this.last_total_tokens = counts.total;
  }

  override should_compress(prompt_tokens?: number): boolean {
    return this.threshold_tokens > 0 && promptTokensArg(prompt_tokens, this.last_prompt_tokens) >= this.threshold_tokens;
  }

  override update_model(options: UpdateModelOptions): void {
    this.context_length = Math.max(0, Math.floor(options.context_length) || 0);
    this.threshold_tokens = thresholdFor(this.context_length, this.threshold_percent);
  }

  /** The token budget a pass aims for. */
  budgetFor(inputTokens: number): number {
    const base = this.threshold_tokens > 0 ? this.threshold_tokens : inputTokens;
    return Math.max(1, Math.floor(base * this.#targetRatio));
  }

  override compress(messages: Message[], _current_tokens?: number | null, _focus_topic?: string | null, options: CompressOptions = {}): Message[] {
    options.signal?.throwIfAborted();
    const tokens = messages.map(estimateMessageTokensRough);
    const total = tokens.reduce((sum, t) => sum + t, 0);
    const output = total <= this.budgetFor(total) ? repairToolPairs(messages) : truncate(messages, tokens, this.budgetFor(total));
    options.signal?.throwIfAborted();
    this.compression_count += 1;
    return estimateTokensRough(output) <= total ? output : messages.slice();
  }
}

/** Whole turns from the oldest, then whole units of the last turn, until the rest fits. */
function truncate(messages: readonly Message[], tokens: readonly number[], budget: number): Message[] {
  const n = messages.length;
  let systemEnd = 0;
  while (systemEnd < n && (messages[systemEnd] as Message).role === "system") systemEnd++;
  let fixed = 0;
  for (let i = 0; i < systemEnd; i++) fixed += tokens[i] as number;

  const suffix = new Array<number>(n + 1).fill(0);
  for (let i = n - 1; i >= 0; i--) suffix[i] = (suffix[i + 1] as number) + (tokens[i] as number);
  const lastUser = findLastUser(messages, systemEnd);

  // Turns start at user messages; the earliest start whose suffix fits wins, but never past the latest user message.
  let keepFrom = lastUser === -1 ? systemEnd : lastUser;
  for (let i = systemEnd; i <= keepFrom; i++) {
    if (i !== systemEnd && (messages[i] as Message).role !== "user") continue;
    if (fixed + (suffix[i] as number) <= budget) {
      keepFrom = i;
      break;
    }
  }
  const head = messages.slice(0, systemEnd);
  if (fixed + (suffix[keepFrom] as number) <= budget || lastUser === -1) {
    return repairToolPairs([...head, ...dropLeadingUnits(messages, tokens, keepFrom, budget - fixed)]);
  }
  // Only the latest turn is left and it is still too big: keep its user message, drop its oldest units.
  const pairing = pairToolCalls(messages);
  const units = pairing.units.filter((unit) => unit.start > lastUser);
  let size = (tokens[lastUser] as number) + (suffix[lastUser + 1] as number);
  let first = 0;
  while (first < units.length - 1 && fixed + size > budget) {
    size -= unitTokens(units[first] as ToolUnit, tokens);
    first++;
  }
  const kept = units.slice(first).flatMap((unit) => messages.slice(unit.start, unit.end));
  return repairToolPairs([...head, messages[lastUser] as Message, ...kept]);
}

/** When there is no user message to anchor on, drop whole units from the front until the rest fits. */
function dropLeadingUnits(messages: readonly Message[], tokens: readonly number[], from: number, budget: number): Message[] {
  const rest = messages.slice(from);
  let size = rest.reduce((sum, _m, i) => sum + (tokens[from + i] as number), 0);
  if (size <= budget) return rest;
  const units = pairToolCalls(rest).units;
  let first = 0;
  while (first < units.length - 1 && size > budget) {
    size -= unitTokens(units[first] as ToolUnit, tokens, from);
    first++;
  }
  return rest.slice((units[first] as ToolUnit).start);
}

function unitTokens(unit: ToolUnit, tokens: readonly number[], offset = 0): number {
  let sum = 0;
  for (let i = unit.start; i < unit.end; i++) sum += tokens[offset + i] as number;
  return sum;
}

function findLastUser(messages: readonly Message[], from: number): number {
  for (let i = messages.length - 1; i >= from; i--) if ((messages[i] as Message).role === "user") return i;
  return -1;
}

export interface EngineRegistry {
  register_context_engine(engine: ContextEngine): void;
}

export function register(ctx: EngineRegistry): void {
  ctx.register_context_engine(new TruncateEngine());
}

export default TruncateEngine;
