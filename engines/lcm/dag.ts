import { estimateMessageTokensRough, estimateTokensRough } from "../../harness/contract/tokens.ts";
import type { Message } from "../../harness/contract/types.ts";
import { redactSecrets } from "../shared/redact.ts";
import type { Summarizer } from "../shared/summarizer.ts";
import type { CarriedNode } from "./carrier.ts";
import type { ResolvedLcmSettings } from "./settings.ts";
import type { StagedNode } from "./store.ts";
import { clipText, fingerprint, searchableText, sha256Hex, uidOf } from "./text.ts";

export interface DagBuild {
  /** Names the conversation in node ids, so equal content in two sessions gives two nodes. */
  scopeKey: string;
  /** The uncondensed nodes the active context already carries, oldest first. */
  existing: readonly CarriedNode[];
  /** Raw chunks to summarize into new leaves, oldest first. */
  chunks: readonly (readonly Message[])[];
  summarizer: Summarizer;
  settings: ResolvedLcmSettings;
  focusTopic: string | null;
  signal?: AbortSignal;
}

export interface DagResult {
  /** The uncondensed nodes after this pass, oldest first. */
  top: CarriedNode[];
  /** New nodes to publish on commit. */
  nodes: StagedNode[];
  /** The raw messages the new leaves cover, in order (leaf `messageIndices` point here). */
  messages: Message[];
}

const TRUNCATION_NOTE = "[deterministic truncation — the full text is available through lcm_expand]";

/**
 * One DAG step: a leaf per chunk, then condensation wherever `condensationFanin` same-depth nodes
 * stand in a row (oldest run first), repeated until no such run is left.
 */
export async function buildDag(input: DagBuild): Promise<DagResult> {
  const { settings } = input;
  const messages: Message[] = [];
  const nodes: StagedNode[] = [];
  const top: CarriedNode[] = [...input.existing];

  for (const chunk of input.chunks) {
    if (chunk.length === 0) continue;
    const first = messages.length;
    messages.push(...chunk);
    const sourceTokens = estimateTokensRough(chunk);
    const budget = Math.min(settings.leafTargetTokens, Math.max(32, Math.floor(sourceTokens * 0.25)));
    const summary = await summarizeWithin(input, chunk, budget, sourceTokens);
    const keys = chunk.map((m) => uidOf(m) ?? fingerprint(m));
    const node = stagedNode(input.scopeKey, 0, summary, sourceTokens, chunk.length, keys);
    node.messageIndices = chunk.map((_, offset) => first + offset);
    nodes.push(node);
    top.push(carried(node));
  }

  for (let run = findRun(top, settings.condensationFanin); run >= 0; run = findRun(top, settings.condensationFanin)) {
    const children = top.slice(run, run + settings.condensationFanin);
    const depth = (children[0] as CarriedNode).depth + 1;
    const asMessages: Message[] = children.map((c) => ({ role: "user", content: c.summary }));
    const sourceTokens = estimateTokensRough(asMessages);
    const budget = Math.min(settings.condensedTargetTokens, Math.max(32, Math.floor(sourceTokens * 0.5)));
    const summary = await summarizeWithin(input, asMessages, budget, sourceTokens);
    const messageCount = children.reduce((sum, c) => sum + c.messageCount, 0);
    const node = stagedNode(input.scopeKey, depth, summary, sourceTokens, messageCount, children.map((c) => c.id));
    node.children = children.map((c) => c.id);
    nodes.push(node);
    top.splice(run, settings.condensationFanin, carried(node));
  }
  return { top, nodes, messages };
}

/** Index of the oldest run of `fanin` consecutive nodes of one depth, or -1. */
function findRun(top: readonly CarriedNode[], fanin: number): number {
  for (let start = 0; start + fanin <= top.length; start++) {
    const depth = (top[start] as CarriedNode).depth;
    let same = true;
    for (let k = 1; k < fanin && same; k++) same = (top[start + k] as CarriedNode).depth === depth;
    if (same) return start;
  }
  return -1;
}

/**
 * The summarizer's text when it is non-empty and smaller than its source; otherwise a
 * deterministic head-and-tail truncation, so a node is never empty.
 */
async function summarizeWithin(input: DagBuild, source: readonly Message[], budget: number, sourceTokens: number): Promise<string> {
  let text = "";
  try {
    text = String(
      (await input.summarizer.summarize({
        messages: source,
        focusTopic: input.focusTopic,
        budgetTokens: budget,
        ...(input.signal ? { signal: input.signal } : {}),
      })) ?? "",
    ).trim();
  } catch (error) {
    if (input.signal?.aborted) throw error;
    text = "";
  }
  const tokens = estimateMessageTokensRough({ role: "user", content: text });
  if (text.length > 0 && tokens < sourceTokens && tokens <= budget * 2) return text;
  const raw = redactSecrets(source.map((m) => `${String(m.role)}: ${searchableText(m)}`).join("\n"));
  return clipText(raw, Math.max(64, budget * 4 - TRUNCATION_NOTE.length - 1)) + `\n${TRUNCATION_NOTE}`;
}

function stagedNode(scopeKey: string, depth: number, summary: string, sourceTokens: number, messageCount: number, sourceKeys: string[]): StagedNode {
  const id = `lcm_${sha256Hex(`${scopeKey}\u0000${depth}\u0000${sourceKeys.join(",")}\u0000${summary}`).slice(0, 16)}`;
  return {
    id,
    depth,
    summary,
    tokenCount: estimateMessageTokensRough({ role: "user", content: summary }),
    sourceTokenCount: sourceTokens,
    messageCount,
    messageIndices: [],
    children: [],
  };
}

function carried(node: StagedNode): CarriedNode {
  return { id: node.id, depth: node.depth, messageCount: node.messageCount, summary: node.summary };
}
