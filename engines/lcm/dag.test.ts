import { describe, expect, it } from "vitest";
import { estimateTokensRough } from "../../harness/contract/tokens.ts";
import type { Message } from "../../harness/contract/types.ts";
import { ExtractiveSummarizer } from "../shared/extractive-summarizer.ts";
import type { CarriedNode } from "./carrier.ts";
import { buildDag } from "./dag.ts";
import { resolveSettings } from "./settings.ts";
import { fillerTurns, transcript } from "./test-transcripts.ts";

const chunksOf = (count: number, seed = 0): Message[][] =>
  Array.from({ length: count }, (_, k) => transcript("s", fillerTurns(2, seed + k * 10)).slice(1));

const build = (chunks: Message[][], existing: CarriedNode[] = [], scopeKey = "s", fanin = 4) =>
  buildDag({ scopeKey, existing, chunks, summarizer: new ExtractiveSummarizer(), settings: resolveSettings({ condensationFanin: fanin }), focusTopic: null });

describe("lcm summary DAG", () => {
  it("makes one leaf per chunk, each smaller than its source and pointing at its messages", async () => {
    const chunks = chunksOf(3);
    const dag = await build(chunks);
    expect(dag.nodes.map((n) => n.depth)).toEqual([0, 0, 0]);
    expect(dag.top.map((n) => n.id)).toEqual(dag.nodes.map((n) => n.id));
    dag.nodes.forEach((node, k) => {
      const chunk = chunks[k] as Message[];
      expect(node.summary.length).toBeGreaterThan(0);
      expect(node.tokenCount).toBeLessThan(estimateTokensRough(chunk));
      expect(node.messageIndices.map((i) => dag.messages[i])).toEqual(chunk);
    });
  });

  it("condenses fan-in same-depth nodes into one node of the next depth, oldest run first", async () => {
    const dag = await build(chunksOf(5));
    const condensed = dag.nodes.filter((n) => n.depth === 1);
    expect(condensed).toHaveLength(1);
    const leaves = dag.nodes.filter((n) => n.depth === 0);
    expect(condensed[0]?.children).toEqual(leaves.slice(0, 4).map((n) => n.id));
    expect(condensed[0]?.messageCount).toBe(leaves.slice(0, 4).reduce((sum, n) => sum + n.messageCount, 0));
    expect(dag.top.map((n) => n.depth)).toEqual([1, 0]);
  });

  it("condenses across passes: carried leaves plus new ones reach the fan-in, and condensation cascades", async () => {
    const first = await build(chunksOf(3), [], "s", 2);
    // fan-in 2: three leaves → [d1, d0]
    expect(first.top.map((n) => n.depth)).toEqual([1, 0]);
    const second = await build(chunksOf(3, 100), first.top, "s", 2);
    // [d1, d0] + three leaves → d0 pairs and d1 pairs fold until no two of one depth stand together
    const depths = second.top.map((n) => n.depth);
    for (let i = 1; i < depths.length; i++) expect(depths[i]).not.toBe(depths[i - 1]);
    expect(Math.max(...depths)).toBeGreaterThanOrEqual(2);
  });

  it("gives deterministic node ids that differ between sessions with equal content", async () => {
    const a = await build(chunksOf(1), [], "session-a");
    const again = await build(chunksOf(1), [], "session-a");
    const b = await build(chunksOf(1), [], "session-b");
    expect(a.nodes[0]?.id).toBe(again.nodes[0]?.id);
    expect(a.nodes[0]?.id).not.toBe(b.nodes[0]?.id);
    expect(a.nodes[0]?.id).toMatch(/^lcm_[0-9a-f]{16}$/);
  });

  it("falls back to a bounded truncation when the summarizer returns nothing", async () => {
    const chunks = chunksOf(1);
    const dag = await buildDag({
      scopeKey: "s",
      existing: [],
      chunks,
      summarizer: { summarize: () => "" },
      settings: resolveSettings({}),
      focusTopic: null,
    });
    expect(dag.nodes[0]?.summary).toMatch(/deterministic truncation/);
    expect(dag.nodes[0]?.tokenCount).toBeLessThan(estimateTokensRough(chunks[0] as Message[]));
  });
});
