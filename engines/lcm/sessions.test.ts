import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { stripAll } from "../../harness/contract/persistence-fields.ts";
import type { Message } from "../../harness/contract/types.ts";
import { isCarrier, parseCarrier } from "./carrier.ts";
import { LcmEngine } from "./index.ts";
import { completeTurns, fillerTurns, transcript } from "./test-transcripts.ts";

const FACT_A = "the deploy key for orion is KX-48213";
const FACT_B = "the deploy key for lyra is QZ-77001";
let home: string;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "lcm-sessions-"));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

const grep = (engine: LcmEngine, query: string, messages: Message[]) =>
  JSON.parse(engine.handle_tool_call("lcm_grep", { query }, { messages })) as { messages: Array<{ excerpt: string }>; summaries: Array<{ excerpt: string }> };

describe("lcm with two sessions on one instance (THR-1, THR-2)", () => {
  it("keeps each session's history, summaries, tools and retrieval to itself under interleaved calls", async () => {
    const engine = new LcmEngine();
    engine.update_model({ model: "m", context_length: 4_000 });
    engine.on_session_start("A", { home });
    engine.on_session_start("B", { home });
    const historyA = transcript("A", fillerTurns(24, 0, { turn: 2, fact: FACT_A }));
    const historyB = transcript("B", fillerTurns(24, 0, { turn: 2, fact: FACT_B }));
    completeTurns(engine, "A", historyA);
    completeTurns(engine, "B", historyB);

    // Both passes run concurrently; B commits first.
    const [outA, outB] = await Promise.all([engine.compress(structuredClone(historyA)), engine.compress(structuredClone(historyB))]);
    engine.on_session_start("B", { boundary_reason: "compression", old_session_id: "B" });
    engine.on_session_start("A", { boundary_reason: "compression", old_session_id: "A" });

    expect(JSON.stringify(outA)).not.toContain("QZ-77001");
    expect(JSON.stringify(outB)).not.toContain("KX-48213");
    expect(JSON.stringify(outA)).toContain("KX-48213");

    expect(grep(engine, "deploy key", outA).messages.map((m) => m.excerpt).join()).toContain("KX-48213");
    expect(JSON.stringify(grep(engine, "deploy key", outA))).not.toContain("QZ-77001");
    expect(JSON.stringify(grep(engine, "deploy key", outB))).not.toContain("KX-48213");

    // A node of B is invisible from A.
    const nodeOfB = (parseCarrier(outB.find(isCarrier) as Message)[0] as { id: string }).id;
    expect(JSON.parse(engine.handle_tool_call("lcm_describe", { node_id: nodeOfB }, { messages: outA }))).toHaveProperty("error");
    expect(JSON.parse(engine.handle_tool_call("lcm_describe", { node_id: nodeOfB }, { messages: outB }))).toHaveProperty("node_id", nodeOfB);

    const question: Message = { role: "user", content: "What was the deploy key again?", message_uid: "e".repeat(32) };
    for (const [out, own, other] of [[outA, "KX-48213", "QZ-77001"], [outB, "QZ-77001", "KX-48213"]] as const) {
      const conversation = [...out, question];
      const selection = JSON.stringify(engine.select_context(stripAll(conversation), { conversation_messages: conversation, incoming_message: question }));
      expect(selection).toContain(own);
      expect(selection).not.toContain(other);
    }
    engine.close();
  });
});

describe("lcm clone_for_agent (REG-6)", () => {
  it("is a different object with the same configuration, its own budget, and works after the original is closed", async () => {
    const original = new LcmEngine({ condensationFanin: 3 });
    original.threshold_percent = 0.6;
    original.update_model({ model: "m", context_length: 4_000 });
    original.on_session_start("A", { home });
    const history = transcript("A", fillerTurns(24, 0, { turn: 2, fact: FACT_A }));
    completeTurns(original, "A", history);
    const compacted = await original.compress(structuredClone(history));
    original.on_session_start("A", { boundary_reason: "compression", old_session_id: "A" });

    const clone = original.clone_for_agent();
    expect(clone).not.toBe(original);
    expect(clone.threshold_percent).toBe(0.6);
    expect(clone.threshold_tokens).toBe(original.threshold_tokens);
    clone.update_model({ model: "small", context_length: 1_000 });
    expect(original.context_length).toBe(4_000);

    original.close();
    expect(grep(clone, "KX-48213", compacted).messages).toHaveLength(1);
    const more = await clone.compress([...structuredClone(compacted), ...transcript("A", fillerTurns(12, 40)).slice(1).map((m, i) => ({ ...m, message_uid: `${"c".repeat(28)}${String(i).padStart(4, "0")}` }))]);
    clone.on_session_start("A", { boundary_reason: "compression", old_session_id: "A" });
    expect(clone.compression_count).toBe(1);
    expect(original.compression_count).toBe(1);
    const carried = parseCarrier(more.find(isCarrier) as Message);
    expect(JSON.parse(clone.handle_tool_call("lcm_describe", { node_id: carried.at(-1)?.id }, { messages: more }))).toHaveProperty("depth");
    clone.close();
  });

  it("copies an in-memory store so the clone still sees what the original kept", async () => {
    const original = new LcmEngine({ context_length: 4_000 });
    original.on_session_start("A", {});
    const history = transcript("A", fillerTurns(24, 0, { turn: 2, fact: FACT_A }));
    completeTurns(original, "A", history);
    const compacted = await original.compress(structuredClone(history));
    original.on_session_start("A", { boundary_reason: "compression", old_session_id: "A" });
    const clone = original.clone_for_agent();
    original.close();
    expect(grep(clone, "KX-48213", compacted).messages).toHaveLength(1);
    clone.close();
  });
});
