import { CHARS_PER_TOKEN, estimateMessageTokensRough, estimateTokensRough } from "../../harness/contract/tokens.ts";
import type { Message } from "../../harness/contract/types.ts";
import type { Summarizer } from "../shared/summarizer.ts";
import { alignCutToUnit, pairToolCalls, repairToolPairs, type ToolUnit } from "../shared/tool-pairs.ts";
import { isCarrier, parseCarrier, renderCarrier, type CarriedNode } from "./carrier.ts";
import { buildDag } from "./dag.ts";
import { externalizeLargeResults } from "./externalize.ts";
import type { ResolvedLcmSettings } from "./settings.ts";
import type { StagedPass } from "./store.ts";

export interface CompactionRequest {
  messages: readonly Message[];
  thresholdTokens: number;
  scopeKey: string;
  summarizer: Summarizer;
  settings: ResolvedLcmSettings;
  focusTopic: string | null;
  signal?: AbortSignal;
}

export interface CompactionPlan {
  /** The list to hand back: the input itself when the pass has nothing to do. */
  output: Message[];
  /** What to publish once the host commits; null for a no-op. */
  pass: StagedPass | null;
  /** The nodes the output's carrier names. */
  carried: CarriedNode[];
}

/** A tool result is shortened in the tail only above this size, and above the tail budget. */
const MIN_EXTERNALIZE_CHARS = 4_000;
/** Fresh-tail budget when the engine knows no threshold yet. */
const FALLBACK_TAIL_TOKENS = 2_000;

/**
 * One compaction pass, without side effects: system prompt + one carrier of summaries + fresh
 * tail aligned to tool units. The raw messages left of the tail become new leaves.
 */
export async function planCompaction(request: CompactionRequest): Promise<CompactionPlan> {
  const { messages, settings } = request;
  const noOp: CompactionPlan = { output: messages as Message[], pass: null, carried: [] };
  const head = messages[0]?.role === "system" ? [messages[0]] : [];
  const existing: CarriedNode[] = [];
  const raw: Message[] = [];
  for (const message of messages.slice(head.length)) {
    if (isCarrier(message)) existing.push(...parseCarrier(message));
    else raw.push(message);
  }

  const pairing = pairToolCalls(raw);
  const budget = request.thresholdTokens > 0 ? Math.floor(request.thresholdTokens * settings.freshTailRatio) : FALLBACK_TAIL_TOKENS;
  const cut = tailStart(raw, pairing.units, budget, settings.freshTailCount, 0);
  const lastUser = raw.findLastIndex((m) => m.role === "user");
  const tailCut = lastUser >= 0 && lastUser < cut ? alignCutToUnit(pairing, lastUser, "earlier") : cut;
  // When the latest user message pulls in a turn too large for the tail (a long tool loop), the
  // older units of that turn are summarized too; the user message and the newest units stay.
  let inner = { from: raw.length, to: raw.length };
  if (lastUser >= tailCut && estimateTokensRough(raw.slice(tailCut)) > budget) {
    const afterUser = (pairing.units[pairing.unitOf[lastUser] as number] as ToolUnit).end;
    const innerCut = tailStart(raw, pairing.units, budget - estimateTokensRough(raw.slice(tailCut, afterUser)), settings.freshTailCount, afterUser);
    if (innerCut > afterUser) inner = { from: afterUser, to: innerCut };
  }
  const chunks = [
    ...chunkUnits(raw, pairing.units, 0, tailCut, settings.leafChunkTokens),
    ...chunkUnits(raw, pairing.units, inner.from, inner.to, settings.leafChunkTokens),
  ];
  const externalized = externalizeLargeResults([...raw.slice(tailCut, inner.from), ...raw.slice(inner.to)], Math.max(MIN_EXTERNALIZE_CHARS, budget * CHARS_PER_TOKEN));
  if (chunks.length === 0 && externalized.originals.length === 0) return noOp;

  const dag = await buildDag({
    scopeKey: request.scopeKey,
    existing,
    chunks,
    summarizer: request.summarizer,
    settings,
    focusTopic: request.focusTopic,
    ...(request.signal ? { signal: request.signal } : {}),
  });
  const carrier = dag.top.length > 0 ? [renderCarrier(dag.top)] : [];
  const output = repairToolPairs([...head, ...carrier, ...externalized.tail]);
  // Never grow the context (CMP-4): a backlog too small to gain from a summary stays as it is.
  if (estimateTokensRough(output) > estimateTokensRough(messages)) return noOp;
  return { output, pass: { messages: [...dag.messages, ...externalized.originals], nodes: dag.nodes }, carried: dag.top };
}

/**
 * Index of the first message of the fresh tail: whole units from the end, within the budget and
 * the message count, never before `floor`. The last unit is always taken.
 */
function tailStart(raw: readonly Message[], units: readonly ToolUnit[], budget: number, maxCount: number, floor: number): number {
  let cut = raw.length;
  let tokens = 0;
  for (let u = units.length - 1; u >= 0; u--) {
    const unit = units[u] as ToolUnit;
    if (unit.start < floor) break;
    const unitTokens = estimateTokensRough(raw.slice(unit.start, unit.end));
    const first = cut === raw.length;
    if (!first && (tokens + unitTokens > budget || raw.length - unit.start > maxCount)) break;
    tokens += unitTokens;
    cut = unit.start;
  }
  return cut;
}

/** The whole units within [start, end), grouped into chunks of at most `maxTokens` (a larger unit is a chunk of its own). */
function chunkUnits(raw: readonly Message[], units: readonly ToolUnit[], start: number, end: number, maxTokens: number): Message[][] {
  const chunks: Message[][] = [];
  let current: Message[] = [];
  let tokens = 0;
  for (const unit of units) {
    if (unit.start < start) continue;
    if (unit.start >= end) break;
    const slice = raw.slice(unit.start, unit.end);
    const unitTokens = slice.reduce((sum, m) => sum + estimateMessageTokensRough(m), 0);
    if (current.length > 0 && tokens + unitTokens > maxTokens) {
      chunks.push(current);
      current = [];
      tokens = 0;
    }
    current.push(...slice);
    tokens += unitTokens;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
