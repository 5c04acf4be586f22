import { CHARS_PER_TOKEN, estimateMessageTokensRough } from "../../harness/contract/tokens.ts";
import type { Message } from "../../harness/contract/types.ts";
import { alignCutToUnit, pairToolCalls, type ToolPairing, type ToolUnit } from "../shared/tool-pairs.ts";
import { CARRIER_FRAME_CHARS, holdsCarrier, unwrapCarrier } from "./carrier.ts";
import { asDuplicate, clearedResult, dedupeKey, withShrunkArguments } from "./prune.ts";

/** What a pass needs to know besides the messages. */
export interface PlanSettings {
  /** The trigger the output must get under. */
  threshold: number;
  /** The model's window, for the summary's size cap (0 when unknown). */
  contextLength: number;
  protectFirstN: number;
  protectLastN: number;
  /** The tail's token budget as a share of the threshold. */
  tailRatio: number;
  pruneMinChars: number;
  maxSummaryTokens: number | null;
}

/**
 * One pass laid out: head and tail kept (tool traffic pruned), the middle to be summarized, and the
 * summary's budget. Indices refer to `list` (the input with earlier summaries taken out).
 */
export interface Plan {
  list: Message[];
  /** `list` with the tool output of the kept head and tail pruned; the middle is left as it was. */
  work: Message[];
  previousSummary: string | null;
  /** Index in `list` where the earliest previous summary sat. */
  previousAt: number;
  carrierUid: string | null;
  headEnd: number;
  tailStart: number;
  summaryBudget: number;
  pairing: ToolPairing;
  /** Tokens the tail may grow by to give the carrier a role of its own instead of a merge. */
  extensionAllowance: number;
  /**
   * A lower bound of the input's rough token estimate, measured only as far as needed: enough to
   * show the output is not larger without estimating every message of a long history.
   */
  inputFloor: number;
}

const FRAME_TOKENS = Math.ceil(CARRIER_FRAME_CHARS / CHARS_PER_TOKEN) + 8;
/** The output aims this far below the threshold, so the next turn does not re-trigger at once. */
const HEADROOM = 0.9;
const MIN_SUMMARY_TOKENS = 32;
const MAX_ARG_CHARS = 500;
const ARG_LEAF_CHARS = 200;

/**
 * Only the head, the tail and as much of the middle as the budgets need are measured or pruned, so
 * a pass costs the pairing walk plus work bounded by the budgets, however long the history.
 */
export function planCompaction(input: readonly Message[], settings: PlanSettings): Plan {
  const { list, previousSummary, previousAt, carrierUid } = takeOutSummaries(input);
  const n = list.length;
  const pairing = pairToolCalls(list);
  const work = list.slice();
  const listTokens = new Float64Array(n).fill(-1);
  const tokenOfList = (i: number) => {
    let t = listTokens[i] as number;
    if (t < 0) listTokens[i] = t = estimateMessageTokensRough(list[i] as Message);
    return t;
  };
  const tokenOfWork = (i: number) => (work[i] === list[i] ? tokenOfList(i) : estimateMessageTokensRough(work[i] as Message));

  let systemEnd = 0;
  while (systemEnd < n && (list[systemEnd] as Message).role === "system") systemEnd++;
  // After the first compaction the early turns are in the summary: protecting them again would fossilize them.
  const protectFirst = previousSummary === null ? Math.max(0, settings.protectFirstN) : 0;
  const headEnd = alignCutToUnit(pairing, Math.min(n, systemEnd + protectFirst), "later");
  const pruneEnd = Math.max(headEnd, alignCutToUnit(pairing, n - Math.max(0, settings.protectLastN), "earlier"));
  const pruner = new Pruner(list, work, pairing, settings.pruneMinChars, pruneEnd);

  // The tail: whole units from the end while within the budget, or while under the message floor.
  const tailBudget = Math.max(1, Math.floor(settings.threshold * settings.tailRatio));
  const floor = Math.max(3, Math.min(settings.protectLastN, 8));
  const lastUser = findLastUser(list, headEnd);
  let tailStart = n;
  let tailTokens = 0;
  for (let u = pairing.units.length - 1; u >= 0; u--) {
    const unit = pairing.units[u] as ToolUnit;
    if (unit.start < headEnd) break;
    // The latest user message stays in the tail (CMP-5), whatever the budget says.
    const mustKeep = n - tailStart < floor || (lastUser !== -1 && tailStart > lastUser);
    const candidate = pruner.prepare(unit, tokenOfWork);
    if (!mustKeep && tailTokens + candidate.tokens > tailBudget) break;
    pruner.accept(candidate);
    tailTokens += candidate.tokens;
    tailStart = unit.start;
  }
  // If the floor already took everything, fall back to the budget alone so the pass can make progress.
  if (tailStart <= headEnd && n - headEnd > 1) {
    ({ tailStart, tailTokens } = retreatToBudget(pairing, headEnd, lastUser, tailBudget, tokenOfWork, n));
  }

  for (let i = headEnd - 1; i >= systemEnd; i--) pruner.pruneOne(i);
  let headTokens = 0;
  for (let i = 0; i < headEnd; i++) headTokens += tokenOfWork(i);

  const maxSummary = summaryCap(settings);
  const target = Math.floor(settings.threshold * HEADROOM);
  const smallestSummary = Math.min(maxSummary, 256);
  if (headTokens + tailTokens + FRAME_TOKENS + smallestSummary >= target) {
    tailTokens = relieveTail(pruner, tailStart, n, tokenOfWork, target - headTokens - FRAME_TOKENS - smallestSummary);
  }

  // The middle is measured only up to what the summary budget can use.
  const previousTokens = previousSummary === null ? 0 : Math.ceil(previousSummary.length / CHARS_PER_TOKEN);
  const enough = 5 * maxSummary + FRAME_TOKENS;
  let middleTokens = 0;
  for (let i = headEnd; i < tailStart && middleTokens < enough; i++) middleTokens += tokenOfList(i);
  const desired = Math.min(maxSummary, Math.max(Math.min(2000, maxSummary), Math.floor(0.2 * (middleTokens + previousTokens))));
  const room = target - headTokens - tailTokens - FRAME_TOKENS;
  // Never more than what it replaces: a compaction must not grow the context (CMP-4).
  const replaced = middleTokens + previousTokens - FRAME_TOKENS;
  const summaryBudget = Math.max(0, Math.min(replaced, Math.max(MIN_SUMMARY_TOKENS, Math.min(desired, room))));

  let keptInput = 0;
  for (let i = 0; i < headEnd; i++) keptInput += tokenOfList(i);
  for (let i = tailStart; i < n; i++) keptInput += tokenOfList(i);
  return {
    list,
    work,
    previousSummary,
    previousAt,
    carrierUid,
    headEnd,
    tailStart,
    summaryBudget,
    pairing,
    extensionAllowance: Math.floor(settings.threshold * (1 - HEADROOM) * 0.5),
    inputFloor: keptInput + middleTokens,
  };
}

interface Candidate {
  unit: ToolUnit;
  versions: Message[];
  keys: string[];
  tokens: number;
}

/**
 * Pruning of the kept messages: identical outputs keep only their newest copy (everywhere), and
 * outside the protected last messages large outputs become one-liners and long arguments shrink.
 */
class Pruner {
  readonly #seen = new Set<string>();

  constructor(
    readonly list: readonly Message[],
    readonly work: Message[],
    readonly pairing: ToolPairing,
    readonly minChars: number,
    readonly pruneEnd: number,
  ) {}

  /** The unit's pruned messages and their size, not yet committed. */
  prepare(unit: ToolUnit, tokenOf: (i: number) => number): Candidate {
    const versions: Message[] = [];
    const keys: string[] = [];
    const local = new Set<string>();
    let tokens = 0;
    for (let i = unit.end - 1; i >= unit.start; i--) {
      const original = this.list[i] as Message;
      const key = dedupeKey(original, this.minChars);
      let version = original;
      if (key !== null && (this.#seen.has(key) || local.has(key))) version = asDuplicate(original);
      else if (i < this.pruneEnd) version = this.#reduce(i);
      if (key !== null) {
        local.add(key);
        keys.push(key);
      }
      versions.push(version);
      tokens += version === original ? tokenOf(i) : estimateMessageTokensRough(version);
    }
    versions.reverse();
    return { unit, versions, keys, tokens };
  }

  accept(candidate: Candidate): void {
    candidate.versions.forEach((version, k) => (this.work[candidate.unit.start + k] = version));
    for (const key of candidate.keys) this.#seen.add(key);
  }

  /** Prune one head message against everything kept after it. */
  pruneOne(i: number): void {
    const original = this.list[i] as Message;
    const key = dedupeKey(original, this.minChars);
    if (key !== null && this.#seen.has(key)) this.work[i] = asDuplicate(original);
    else if (i < this.pruneEnd) this.work[i] = this.#reduce(i);
    if (key !== null) this.#seen.add(key);
  }

  /** Under pressure: one-liners for large outputs in `[from, to)`, protected or not. */
  force(from: number, to: number): void {
    for (let i = from; i < to; i++) {
      const current = this.work[i] as Message;
      if (current.role === "tool") this.work[i] = clearedResult(this.work, this.pairing, i, this.minChars);
      else this.work[i] = withShrunkArguments(current, MAX_ARG_CHARS, ARG_LEAF_CHARS);
    }
  }

  #reduce(i: number): Message {
    const original = this.list[i] as Message;
    if (original.role === "tool") return clearedResult(this.list, this.pairing, i, this.minChars);
    return withShrunkArguments(original, MAX_ARG_CHARS, ARG_LEAF_CHARS);
  }
}

/** A tail chosen by the budget alone (plus the latest user message), for when the floor took everything. */
function retreatToBudget(
  pairing: ToolPairing,
  headEnd: number,
  lastUser: number,
  budget: number,
  tokenOf: (i: number) => number,
  n: number,
): { tailStart: number; tailTokens: number } {
  let tailStart = n;
  let tailTokens = 0;
  for (let u = pairing.units.length - 1; u >= 0; u--) {
    const unit = pairing.units[u] as ToolUnit;
    if (unit.start < headEnd) break;
    let tokens = 0;
    for (let i = unit.start; i < unit.end; i++) tokens += tokenOf(i);
    const needsLastUser = lastUser !== -1 && tailStart > lastUser;
    if (tailStart < n && !needsLastUser && tailTokens + tokens > budget) break;
    tailTokens += tokens;
    tailStart = unit.start;
  }
  if (tailStart <= headEnd) {
    // Still everything: give up one unit, the oldest, unless it holds the latest user message.
    const first = pairing.units[pairing.unitOf[headEnd] as number] as ToolUnit;
    if (lastUser === -1 || first.end <= lastUser) {
      tailStart = first.end;
      tailTokens = 0;
      for (let i = tailStart; i < n; i++) tailTokens += tokenOf(i);
    }
  }
  return { tailStart, tailTokens };
}

/**
 * A tail too big to leave room for the summary: clear its large tool outputs and shorten long
 * arguments, sparing the last three messages unless that is still not enough.
 */
function relieveTail(pruner: Pruner, tailStart: number, n: number, tokenOf: (i: number) => number, goal: number): number {
  const measure = () => {
    let sum = 0;
    for (let i = tailStart; i < n; i++) sum += tokenOf(i);
    return sum;
  };
  const spareFrom = Math.max(tailStart, n - 3);
  pruner.force(tailStart, spareFrom);
  let tokens = measure();
  if (tokens > goal) {
    pruner.force(spareFrom, n);
    tokens = measure();
  }
  return tokens;
}

/** Earlier carriers leave the list; their summaries become the previous summary to update. */
function takeOutSummaries(input: readonly Message[]): Pick<Plan, "list" | "previousSummary" | "previousAt" | "carrierUid"> {
  const list: Message[] = [];
  const bodies: string[] = [];
  let carrierUid: string | null = null;
  let previousAt = 0;
  for (const message of input) {
    if (!holdsCarrier(message)) {
      list.push(message);
      continue;
    }
    const unwrapped = unwrapCarrier(message);
    if (bodies.length === 0) previousAt = list.length;
    bodies.push(...unwrapped.bodies);
    carrierUid ??= unwrapped.uid;
    if (unwrapped.rest) list.push(unwrapped.rest);
  }
  const previousSummary = bodies.filter((body) => body !== "").join("\n\n");
  return { list, previousSummary: previousSummary === "" ? null : previousSummary, previousAt, carrierUid };
}

function findLastUser(list: readonly Message[], from: number): number {
  for (let i = list.length - 1; i >= from; i--) if ((list[i] as Message).role === "user") return i;
  return -1;
}

function summaryCap(settings: PlanSettings): number {
  if (settings.maxSummaryTokens !== null) return Math.max(MIN_SUMMARY_TOKENS, settings.maxSummaryTokens);
  if (settings.contextLength <= 0) return 2000;
  return Math.max(128, Math.min(10_000, Math.floor(settings.contextLength * 0.05)));
}
