import { CHARS_PER_TOKEN, estimateMessageTokensRough } from "../../harness/contract/tokens.ts";
import type { Message } from "../../harness/contract/types.ts";
import { alignCutToUnit, pairToolCalls, type ToolPairing } from "../shared/tool-pairs.ts";
import { CARRIER_FRAME_CHARS, holdsCarrier, unwrapCarrier } from "./carrier.ts";
import { clearLargeResults, dedupeToolResults, shrinkArguments } from "./prune.ts";

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
  /** `list` with tool results pruned; the head and tail are taken from it. */
  work: Message[];
  previousSummary: string | null;
  /** Index in `list` where the earliest previous summary sat. */
  previousAt: number;
  carrierUid: string | null;
  headEnd: number;
  tailStart: number;
  summaryBudget: number;
}

const FRAME_TOKENS = Math.ceil(CARRIER_FRAME_CHARS / CHARS_PER_TOKEN) + 8;
/** The output aims this far below the threshold, so the next turn does not re-trigger at once. */
const HEADROOM = 0.9;
const MIN_SUMMARY_TOKENS = 32;

export function planCompaction(input: readonly Message[], settings: PlanSettings): Plan {
  const { list, previousSummary, previousAt, carrierUid } = takeOutSummaries(input);
  const n = list.length;
  const pairing = pairToolCalls(list);
  const tokens = list.map(estimateMessageTokensRough);

  let systemEnd = 0;
  while (systemEnd < n && (list[systemEnd] as Message).role === "system") systemEnd++;
  // After the first compaction the early turns are in the summary: protecting them again would fossilize them.
  const protectFirst = previousSummary === null ? Math.max(0, settings.protectFirstN) : 0;
  const headEnd = alignCutToUnit(pairing, Math.min(n, systemEnd + protectFirst), "later");

  const work = list.slice();
  dedupeToolResults(work, settings.pruneMinChars);
  const pruneEnd = Math.max(headEnd, alignCutToUnit(pairing, n - Math.max(0, settings.protectLastN), "earlier"));
  clearLargeResults(work, pairing, 0, pruneEnd, settings.pruneMinChars);
  shrinkArguments(work, 0, pruneEnd, 500, 200);
  const workTokens = (from: number, to: number) => {
    let sum = 0;
    for (let i = from; i < to; i++) sum += estimateMessageTokensRough(work[i] as Message);
    return sum;
  };

  const tailBudget = Math.max(1, Math.floor(settings.threshold * settings.tailRatio));
  const floor = Math.max(3, Math.min(settings.protectLastN, 8));
  let tailStart = walkTail(work, pairing, headEnd, tailBudget, floor);
  if (tailStart <= headEnd) tailStart = walkTail(work, pairing, headEnd, tailBudget, 1);
  tailStart = Math.max(headEnd, anchorLastUser(list, pairing, headEnd, tailStart));

  const headTokens = workTokens(0, headEnd);
  let tailTokens = workTokens(tailStart, n);
  const maxSummary = summaryCap(settings);
  const target = Math.floor(settings.threshold * HEADROOM);
  if (headTokens + tailTokens + FRAME_TOKENS + Math.min(maxSummary, 256) >= target) {
    tailTokens = relieveTail(work, pairing, tailStart, settings.pruneMinChars, () => workTokens(tailStart, n), target - headTokens - FRAME_TOKENS - Math.min(maxSummary, 256));
  }

  let middleTokens = 0;
  for (let i = headEnd; i < tailStart; i++) middleTokens += tokens[i] as number;
  const previousTokens = previousSummary === null ? 0 : Math.ceil(previousSummary.length / CHARS_PER_TOKEN);
  const desired = Math.min(maxSummary, Math.max(Math.min(2000, maxSummary), Math.floor(0.2 * (middleTokens + previousTokens))));
  const room = target - headTokens - tailTokens - FRAME_TOKENS;
  // Never more than what it replaces: a compaction must not grow the context (CMP-4).
  const replaced = workTokens(headEnd, tailStart) + (previousSummary === null ? 0 : previousTokens + FRAME_TOKENS) - FRAME_TOKENS;
  const summaryBudget = Math.max(0, Math.min(replaced, Math.max(MIN_SUMMARY_TOKENS, Math.min(desired, room))));
  return { list, work, previousSummary, previousAt, carrierUid, headEnd, tailStart, summaryBudget };
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

/** The start of the tail: whole units from the end while within the budget, or while under the message floor. */
function walkTail(work: readonly Message[], pairing: ToolPairing, headEnd: number, budget: number, floor: number): number {
  const n = work.length;
  let tailStart = n;
  let total = 0;
  for (let u = pairing.units.length - 1; u >= 0; u--) {
    const unit = pairing.units[u] as { start: number; end: number };
    if (unit.start < headEnd) break;
    let unitTokens = 0;
    for (let i = unit.start; i < unit.end; i++) unitTokens += estimateMessageTokensRough(work[i] as Message);
    if (n - tailStart >= floor && total + unitTokens > budget) break;
    total += unitTokens;
    tailStart = unit.start;
  }
  return tailStart;
}

/** The latest user message stays in the tail (CMP-5): the cut moves back to include its unit. */
function anchorLastUser(list: readonly Message[], pairing: ToolPairing, headEnd: number, tailStart: number): number {
  for (let i = list.length - 1; i >= headEnd; i--) {
    if ((list[i] as Message).role !== "user") continue;
    if (i >= tailStart) return tailStart;
    return (pairing.units[pairing.unitOf[i] as number] as { start: number }).start;
  }
  return tailStart;
}

/**
 * A tail too big to leave room for the summary: clear its large tool outputs and shorten long
 * arguments, sparing the last three messages unless that is still not enough.
 */
function relieveTail(work: Message[], pairing: ToolPairing, tailStart: number, minChars: number, measure: () => number, goal: number): number {
  const n = work.length;
  const spareFrom = Math.max(tailStart, n - 3);
  clearLargeResults(work, pairing, tailStart, spareFrom, minChars);
  shrinkArguments(work, tailStart, spareFrom, 500, 200);
  let tokens = measure();
  if (tokens > goal) {
    clearLargeResults(work, pairing, spareFrom, n, minChars);
    tokens = measure();
  }
  return tokens;
}

function summaryCap(settings: PlanSettings): number {
  if (settings.maxSummaryTokens !== null) return Math.max(MIN_SUMMARY_TOKENS, settings.maxSummaryTokens);
  if (settings.contextLength <= 0) return 2000;
  return Math.max(128, Math.min(10_000, Math.floor(settings.contextLength * 0.05)));
}
