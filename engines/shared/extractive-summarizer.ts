import { CHARS_PER_TOKEN } from "../../harness/contract/tokens.ts";
import type { Message, ToolCall } from "../../harness/contract/types.ts";
import {
  condense,
  describeCall,
  filesInText,
  filesOfCall,
  firstErrorLine,
  headAndTail,
  messageText,
  sentences,
} from "./message-text.ts";
import { redactSecrets } from "./redact.ts";
import type { Summarizer, SummaryRequest } from "./summarizer.ts";
import {
  FOCUS_HEADING_PREFIX,
  SECTION_HEADINGS,
  SECTION_ORDER,
  omittedLine,
  parseSummary,
  renderSection,
  type SectionKey,
} from "./summary-sections.ts";

export interface ExtractiveSummarizerOptions {
  /** Share of the budget given to items about the focus topic (default 0.65). */
  focusShare?: number;
  /** Longest item, in characters (default 240). */
  maxItemChars?: number;
}

interface Item {
  text: string;
  /** Position in history: higher is newer; items of a previous summary are negative. */
  order: number;
  pinned?: boolean;
  /** Facts before decisions before the rest, when a section cannot show everything. */
  priority?: number;
}

/** Items of one section, deduplicated: the newest occurrence of a text wins. */
class Pool {
  items: Item[] = [];
  readonly #seen = new Set<string>();
  chars = 0;

  /** With `nested`, a text already contained in a kept item is a duplicate too. */
  constructor(
    readonly limit: number,
    readonly nested = false,
  ) {}

  get full(): boolean {
    return this.chars >= this.limit;
  }

  add(item: Item): void {
    const key = item.text.toLowerCase();
    if (this.#seen.has(key)) return;
    if (this.nested && this.items.some((kept) => kept.text.toLowerCase().includes(key))) return;
    this.#seen.add(key);
    this.items.push(item);
    this.chars += item.text.length + 3;
  }

  remove(text: string): void {
    const key = text.toLowerCase();
    if (!this.#seen.delete(key)) return;
    this.items = this.items.filter((item) => {
      if (item.text.toLowerCase() !== key) return true;
      this.chars -= item.text.length + 3;
      return false;
    });
  }
}

// Section weights when the budget is shared out; unused shares flow to the sections that need more.
const WEIGHTS: Readonly<Record<SectionKey, number>> = {
  asks: 0.24,
  actions: 0.22,
  decisions: 0.16,
  facts: 0.16,
  errors: 0.1,
  files: 0.08,
  notes: 0.04,
};

/** How much text the walk reads for the sections: a multiple of the summary's size, with a floor. */
const SCAN_BUDGET_MULTIPLE = 24;
const SCAN_FLOOR_CHARS = 100_000;

const DECISION =
  /\b(?:decided|decide to|decision|chose|choose to|going with|go with|settled on|we will|we'll|i will|i'll|let's|the plan is|instead of|switch(?:ed)? to|must|must not|should not|shouldn't|don't|do not|never|always|prefer)\b/i;
const FACT_CUE = /\b(?:for the record|remember|note that|keep in mind|important)\b/i;
const IDENTIFIER = /\b(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[A-Za-z0-9][\w-]{4,}\b/;
const HAS_DIGIT = /\d/;
const COPULA = /\b(?:is|are|was|were|equals|tagged|belongs to|set to)\b/i;
const STOPWORDS = new Set(["the", "and", "for", "with", "that", "this", "from", "about", "into", "what", "how", "keep", "our"]);

/** The bundled summarizer: deterministic, extractive, no network. */
export class ExtractiveSummarizer implements Summarizer {
  readonly #focusShare: number;
  readonly #maxItem: number;

  constructor(options: ExtractiveSummarizerOptions = {}) {
    this.#focusShare = Math.min(0.9, Math.max(0, options.focusShare ?? 0.65));
    this.#maxItem = Math.max(40, options.maxItemChars ?? 240);
  }

  summarize(request: SummaryRequest): string {
    const budgetChars = Math.max(0, Math.floor(request.budgetTokens) * CHARS_PER_TOKEN);
    if (budgetChars === 0) return "";
    const focus = focusMatcher(request.focusTopic);
    const pools = new Map<SectionKey, Pool>(SECTION_ORDER.map((key) => [key, new Pool(budgetChars)]));
    const focusPool = new Pool(budgetChars, true);
    const previous = readPrevious(request.previousSummary ?? null);
    const at = Math.max(0, Math.min(request.messages.length, Math.floor(request.previousSummaryAt ?? 0)));
    // Messages after the previous summary are newer than its items, messages before it older.
    const orderOf = (index: number) => (index >= at ? index - at : index - at - previous.items.length - 2);
    const extractor = new Extractor(pools, focusPool, focus, this.#maxItem, orderOf);

    const firstUser = request.messages.findIndex((message) => message.role === "user");
    const goalIsOlder = firstUser !== -1 && (firstUser < at || previous.goal === null);
    // When older messages than the previous summary are here, its goal becomes an ordinary ask.
    const previousItems: Array<[SectionKey, string]> =
      goalIsOlder && previous.goal !== null ? [["asks", previous.goal], ...previous.items] : previous.items;
    const goal = goalIsOlder ? firstSentences(messageText(request.messages[firstUser] as Message), this.#maxItem) : previous.goal;

    extractor.scan(request.messages, request.signal, Math.max(SCAN_FLOOR_CHARS, SCAN_BUDGET_MULTIPLE * budgetChars));
    extractor.addPrevious(previousItems);
    extractor.pinGoal(goal);
    return this.#render(pools, focusPool, request.focusTopic ?? "", budgetChars);
  }

  #render(pools: Map<SectionKey, Pool>, focusPool: Pool, focusTopic: string, budgetChars: number): string {
    const blocks: string[] = [];
    let remaining = budgetChars;
    if (focusPool.items.length > 0) {
      const heading = `${FOCUS_HEADING_PREFIX}${condense(redactSecrets(focusTopic), 80)}`;
      const othersDemand = SECTION_ORDER.reduce((sum, key) => sum + demand(pools.get(key) as Pool, key), 0);
      const allowance = Math.max(Math.floor(budgetChars * this.#focusShare), budgetChars - othersDemand);
      const block = pickAndRender(focusPool, heading, allowance);
      if (block) {
        blocks.push(block);
        remaining -= block.length + 2;
      }
    }
    const allowances = shareOut(pools, Math.max(0, remaining));
    for (const key of SECTION_ORDER) {
      const block = pickAndRender(pools.get(key) as Pool, SECTION_HEADINGS[key], allowances.get(key) ?? 0);
      if (block) blocks.push(block);
    }
    return fitWithin(blocks.join("\n\n"), budgetChars);
  }
}

class Extractor {
  constructor(
    readonly pools: Map<SectionKey, Pool>,
    readonly focusPool: Pool,
    readonly focus: RegExp | null,
    readonly maxItem: number,
    readonly orderOf: (index: number) => number,
  ) {}

  // Items are redacted when rendered: only the few that are shown pay for it.
  #add(key: SectionKey, text: string, order: number): void {
    const clean = condense(text, this.maxItem);
    if (clean === "") return;
    const item: Item = { text: clean, order, priority: isFact(clean) ? 2 : DECISION.test(clean) ? 1 : 0 };
    if (this.focus && this.focus.test(clean)) this.focusPool.add(item);
    else (this.pools.get(key) as Pool).add(item);
  }

  #wants(key: SectionKey): boolean {
    return !(this.pools.get(key) as Pool).full || (this.focus !== null && !this.focusPool.full);
  }

  /**
   * Newest first, so that pools filled to the budget stop the walk early. The walk reads at most
   * `limitChars` of text for the sections (older turns live on in the previous summary); past
   * that only the focus topic is still looked for, with one regular-expression test per message.
   */
  scan(messages: readonly Message[], signal: AbortSignal | undefined, limitChars: number): void {
    let pending = new Map<string, string[]>();
    let examined = 0;
    for (let i = messages.length - 1; i >= 0; i--) {
      if ((i & 255) === 0) signal?.throwIfAborted();
      if (this.#saturated()) return;
      const message = messages[i] as Message;
      if (examined > limitChars) {
        if (this.focus === null || this.focusPool.full) return;
        this.#focusOnly(message, this.orderOf(i));
        continue;
      }
      const order = this.orderOf(i);
      if (message.role === "tool") {
        const id = String(message.tool_call_id ?? "");
        const text = messageText(message);
        examined += Math.min(text.length, 4000);
        const list = pending.get(id) ?? [];
        list.push(text);
        pending.set(id, list);
        continue;
      }
      const text = messageText(message);
      examined += Math.min(text.length, 6000) + 100;
      if (message.role === "user") {
        pending = new Map();
        this.#add("asks", firstSentences(text, this.maxItem), order);
        this.#fromProse(text, order);
      } else if (message.role === "assistant") {
        const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
        for (let position = calls.length - 1; position >= 0; position--) {
          const call = calls[position] as ToolCall;
          const result = pending.get(String(call?.id ?? ""))?.pop();
          this.#fromCall(call, result, order);
        }
        if (text !== "") this.#fromProse(text, order);
      }
    }
  }

  #focusOnly(message: Message, order: number): void {
    const text = headAndTail(messageText(message), 2000, 2000);
    if (text !== "" && (this.focus as RegExp).test(text)) this.#focusSentences(text, order);
  }

  #saturated(): boolean {
    // Notes only ever come from a previous summary, never from the walk.
    for (const [key, pool] of this.pools) if (key !== "notes" && !pool.full) return false;
    return this.focus === null || this.focusPool.full;
  }

  #fromCall(call: ToolCall, result: string | undefined, order: number): void {
    const described = describeCall(call);
    const bounded = result === undefined ? "" : headAndTail(result, 2000, 2000);
    const error = bounded === "" ? null : firstErrorLine(bounded);
    if (this.#wants("actions")) {
      const outcome = result === undefined ? "" : error ? " → failed" : ` → ${lineCount(result)} lines`;
      this.#add("actions", `${described}${outcome}`, order);
    }
    if (error && this.#wants("errors")) this.#add("errors", `[${described}] ${error}`, order);
    if (this.#wants("files")) for (const file of filesOfCall(call)) this.#add("files", file, order);
    if (this.focus && !this.focusPool.full && bounded !== "" && this.focus.test(bounded)) {
      this.#focusSentences(bounded, order);
    }
  }

  #fromProse(text: string, order: number): void {
    const bounded = headAndTail(text, 4000, 2000);
    const wantDecisions = this.#wants("decisions");
    const wantFacts = this.#wants("facts");
    if (wantDecisions || wantFacts) {
      for (const sentence of sentences(bounded)) {
        if (wantDecisions && DECISION.test(sentence)) this.#add("decisions", sentence, order);
        else if (wantFacts && isFact(sentence)) this.#add("facts", sentence, order);
      }
    }
    if (this.#wants("files")) for (const file of filesInText(bounded)) this.#add("files", file, order);
    if (this.focus && !this.focusPool.full && this.focus.test(bounded)) this.#focusSentences(bounded, order);
  }

  #focusSentences(text: string, order: number): void {
    let taken = 0;
    for (const sentence of sentences(text)) {
      if (!(this.focus as RegExp).test(sentence)) continue;
      const text = condense(sentence, this.maxItem);
      this.focusPool.add({ text, order, priority: isFact(text) ? 2 : DECISION.test(text) ? 1 : 0 });
      if (++taken === 4) return;
    }
  }

  /** A previous summary's items, in time between the messages before and after it. */
  addPrevious(items: ReadonlyArray<[SectionKey, string]>): void {
    // Newest of the old first, so a full pool keeps the most recent of them.
    for (let j = items.length - 1; j >= 0; j--) {
      const [key, text] = items[j] as [SectionKey, string];
      this.#add(key, text, j - items.length);
    }
  }

  /** The first ask of the whole conversation states the goal: it leads the asks, whatever the budget. */
  pinGoal(text: string | null): void {
    if (text === null) return;
    const clean = condense(text, this.maxItem);
    if (clean === "") return;
    for (const pool of [...this.pools.values(), this.focusPool]) pool.remove(clean);
    (this.pools.get("asks") as Pool).add({ text: `${GOAL_PREFIX}${clean}`, order: Number.NEGATIVE_INFINITY, pinned: true });
  }
}

const GOAL_PREFIX = "Goal: ";

/** A previous summary as items in time order, its goal apart. */
function readPrevious(previous: string | null): { items: Array<[SectionKey, string]>; goal: string | null } {
  if (!previous) return { items: [], goal: null };
  const parsed = parseSummary(previous);
  const items: Array<[SectionKey, string]> = [];
  let goal: string | null = null;
  for (const key of SECTION_ORDER) {
    for (const item of parsed.sections.get(key) ?? []) {
      if (key === "asks" && goal === null && item.startsWith(GOAL_PREFIX)) goal = item.slice(GOAL_PREFIX.length);
      else items.push([key, item]);
    }
  }
  for (const item of parsed.focusItems) items.push(["notes", item]);
  // A summary from elsewhere has no marked goal: its first ask is the best guess.
  if (goal === null) {
    const firstAsk = items.findIndex(([key]) => key === "asks");
    if (firstAsk !== -1) goal = (items.splice(firstAsk, 1)[0] as [SectionKey, string])[1];
  }
  return { items, goal };
}

function firstSentences(text: string, max: number): string {
  let out = "";
  for (const sentence of sentences(text)) {
    const next = out === "" ? sentence.trim() : `${out} ${sentence.trim()}`;
    if (next.length > max && out !== "") break;
    out = next;
    if (out.length >= max) break;
  }
  return out;
}

function isFact(sentence: string): boolean {
  return FACT_CUE.test(sentence) || (COPULA.test(sentence) && HAS_DIGIT.test(sentence) && IDENTIFIER.test(sentence));
}

function lineCount(text: string): number {
  if (text === "") return 0;
  let lines = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lines++;
  return lines;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A matcher for the focus topic's words, or null when there is no usable topic. */
export function focusMatcher(topic: string | null | undefined): RegExp | null {
  if (!topic) return null;
  const words = topic
    .toLowerCase()
    .split(/[^\p{L}\p{N}_-]+/u)
    .filter((word) => word.length >= 3 && !STOPWORDS.has(word));
  const unique = [...new Set(words)];
  if (unique.length === 0) return null;
  return new RegExp(`(?:^|[^\\p{L}\\p{N}_])(?:${unique.map(escapeRegExp).join("|")})`, "iu");
}

function demand(pool: Pool, key: SectionKey): number {
  if (pool.items.length === 0) return 0;
  return SECTION_HEADINGS[key].length + 5 + pool.chars;
}

/** Water-filling: each section gets its weighted share, and what a section does not need goes to the others. */
function shareOut(pools: Map<SectionKey, Pool>, total: number): Map<SectionKey, number> {
  const result = new Map<SectionKey, number>();
  let active = SECTION_ORDER.filter((key) => (pools.get(key) as Pool).items.length > 0);
  let left = total;
  while (active.length > 0 && left > 0) {
    const weight = active.reduce((sum, key) => sum + WEIGHTS[key], 0);
    const satisfied = active.filter((key) => demand(pools.get(key) as Pool, key) <= (left * WEIGHTS[key]) / weight);
    if (satisfied.length === 0) {
      for (const key of active) result.set(key, Math.floor((left * WEIGHTS[key]) / weight));
      return result;
    }
    for (const key of satisfied) {
      const need = demand(pools.get(key) as Pool, key);
      result.set(key, need);
      left -= need;
    }
    active = active.filter((key) => !satisfied.includes(key));
  }
  return result;
}

/** Pinned items first, then by priority, then the newest that fit; shown oldest first. Null when nothing fits. */
function pickAndRender(pool: Pool, heading: string, allowance: number): string | null {
  const headingCost = heading.length + 4;
  if (pool.items.length === 0 || allowance < headingCost + 12) return null;
  const omission = omittedLine().length + 1;
  // A section that cannot show everything keeps room to say so.
  let left = allowance - headingCost - (pool.chars > allowance - headingCost ? omission : 0);
  const ranked = pool.items.map((item) => ({ ...item, text: redactSecrets(item.text) })).sort(
    (a, b) => Number(b.pinned ?? false) - Number(a.pinned ?? false) || (b.priority ?? 0) - (a.priority ?? 0) || b.order - a.order,
  );
  const chosen: Item[] = [];
  for (const item of ranked) {
    const cost = item.text.length + 3;
    if (cost <= left) {
      chosen.push(item);
      left -= cost;
    } else if (chosen.length === 0) {
      chosen.push({ ...item, text: condense(item.text, left - 3) });
      left = 0;
    }
  }
  chosen.sort((a, b) => a.order - b.order);
  return renderSection({ heading, items: chosen.map((item) => item.text), omitted: chosen.length < pool.items.length });
}

/** A hard stop at the budget, cut at a line end. */
function fitWithin(text: string, budgetChars: number): string {
  if (text.length <= budgetChars) return text;
  const cut = text.lastIndexOf("\n", budgetChars);
  return cut > 0 ? text.slice(0, cut) : text.slice(0, budgetChars);
}
