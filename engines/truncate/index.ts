import { ContextEngine, type ContextEngineInit } from "../../harness/contract/context-engine.ts";
import { estimateMessageTokensRough, estimateTokensRough } from "../../harness/contract/tokens.ts";
import type { CompressOptions, Message, UpdateModelOptions, Usage } from "../../harness/contract/types.ts";
import { promptTokensArg, recordUsage, thresholdFor } from "../shared/budget.ts";
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
    recordUsage(this, usage);
  }

  override should_compress(prompt_tokens?: number): boolean {
    return this.threshold_tokens > 0 && promptTokensArg(prompt_tokens, this.last_prompt_tokens) >= this.threshold_tokens;
  }

  override update_model(options: UpdateModelOptions): void {
    this.context_length = Math.max(0, Math.floor(options.context_length) || 0);
    this.threshold_tokens = thresholdFor(this.context_length, this.threshold_percent);
  }

  /** Same configuration, fresh budget state and counters (REG-6). */
  override clone_for_agent(): TruncateEngine {
    const clone = new TruncateEngine({ target_ratio: this.#targetRatio, threshold_percent: this.threshold_percent });
    clone.context_length = this.context_length;
    clone.threshold_tokens = this.threshold_tokens;
    return clone;
  }

  /** The token budget a pass aims for; without a known window, a share of the input. */
  budgetFor(inputTokens: number): number {
    const base = this.threshold_tokens > 0 ? this.threshold_tokens : inputTokens;
    return Math.max(1, Math.floor(base * this.#targetRatio));
  }

  override compress(messages: Message[], _current_tokens?: number | null, _focus_topic?: string | null, options: CompressOptions = {}): Message[] {
    options.signal?.throwIfAborted();
    const budget = this.budgetFor(this.threshold_tokens > 0 ? 0 : estimateTokensRough(messages));
    const output = truncate(messages, budget);
    options.signal?.throwIfAborted();
    this.compression_count += 1;
    return output;
  }
}

/**
 * Whole turns from the oldest, then whole units of the last turn, until the rest fits. Walks back
 * from the end and measures only what it keeps (plus one message), however long the history.
 */
function truncate(messages: readonly Message[], budget: number): Message[] {
  const n = messages.length;
  let systemEnd = 0;
  while (systemEnd < n && (messages[systemEnd] as Message).role === "system") systemEnd++;
  const tokens = new Float64Array(n).fill(-1);
  const tokenOf = (i: number) => {
    let t = tokens[i] as number;
    if (t < 0) tokens[i] = t = estimateMessageTokensRough(messages[i] as Message);
    return t;
  };
  let fixed = 0;
  for (let i = 0; i < systemEnd; i++) fixed += tokenOf(i);
  const head = messages.slice(0, systemEnd);

  // The earliest turn start (a user message) whose suffix fits.
  let suffix = 0;
  let keepFrom = -1;
  let fitsWhole = true;
  for (let i = n - 1; i >= systemEnd; i--) {
    suffix += tokenOf(i);
    if (fixed + suffix > budget) {
      fitsWhole = false;
      break;
    }
    if ((messages[i] as Message).role === "user") keepFrom = i;
  }
  if (fitsWhole) return repairToolPairs(messages);
  if (keepFrom !== -1) return repairToolPairs([...head, ...messages.slice(keepFrom)]);

  // Not even the latest turn fits: keep its user message and drop its oldest units.
  const lastUser = findLastUser(messages, systemEnd);
  const from = lastUser === -1 ? systemEnd : lastUser + 1;
  const rest = messages.slice(from);
  const units = pairToolCalls(rest).units;
  let size = fixed + (lastUser === -1 ? 0 : tokenOf(lastUser));
  for (let i = from; i < n; i++) size += tokenOf(i);
  let first = 0;
  while (first < units.length - 1 && size > budget) {
    size -= unitTokens(units[first] as ToolUnit, tokenOf, from);
    first++;
  }
  const kept = rest.slice(units[first]?.start ?? rest.length);
  return repairToolPairs(lastUser === -1 ? [...head, ...kept] : [...head, messages[lastUser] as Message, ...kept]);
}

function unitTokens(unit: ToolUnit, tokenOf: (i: number) => number, offset: number): number {
  let sum = 0;
  for (let i = unit.start; i < unit.end; i++) sum += tokenOf(offset + i);
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
