import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Message } from "../../harness/contract/types.ts";
import { parseCarrier, isCarrier } from "./carrier.ts";
import { LcmEngine } from "./index.ts";
import { completeTurns, fillerTurns, transcript } from "./test-transcripts.ts";

const FACT = "the deploy key for orion is KX-48213";
let home: string;
let engine: LcmEngine;
let history: Message[];
let compacted: Message[];
// One session, compacted once, shared by every test below: the tools only read.

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), "lcm-tools-"));
  engine = new LcmEngine();
  engine.update_model({ model: "m", context_length: 4_000 });
  engine.on_session_start("s1", { home });
  history = transcript("s1", fillerTurns(24, 0, { turn: 2, fact: FACT }));
  completeTurns(engine, "s1", history);
  compacted = await engine.compress(structuredClone(history));
  engine.on_session_start("s1", { boundary_reason: "compression", old_session_id: "s1" });
});
afterAll(() => {
  engine.close();
  rmSync(home, { recursive: true, force: true });
});

const call = (name: string, args: unknown) => JSON.parse(engine.handle_tool_call(name, args as Record<string, unknown>, { messages: compacted })) as Record<string, unknown>;
const leafId = () => (parseCarrier(compacted.find(isCarrier) as Message)[0] as { id: string }).id;

describe("lcm tools", () => {
  it("offers three uniquely named tools with object parameters (TOOL-1)", () => {
    const schemas = engine.get_tool_schemas();
    expect(schemas.map((s) => s.name)).toEqual(["lcm_grep", "lcm_describe", "lcm_expand"]);
    for (const schema of schemas) expect(schema.parameters.type).toBe("object");
  });

  it("lcm_grep finds a compacted fact in the raw messages, with the node that covers it", () => {
    const result = call("lcm_grep", { query: "KX-48213" });
    expect(result.mode).toBe("fts5");
    const messages = result.messages as Array<{ excerpt: string; node_id: string | null; role: string }>;
    expect(messages).toHaveLength(1);
    expect(messages[0]?.excerpt).toContain(FACT);
    expect(messages[0]?.node_id).toBe(leafId());
  });

  it("lcm_grep searches summaries too, and answers an empty list when nothing matches", () => {
    const summaries = call("lcm_grep", { query: "orion", scope: "summaries" }).summaries as Array<{ node_id: string }>;
    expect(summaries.map((s) => s.node_id)).toContain(leafId());
    const none = call("lcm_grep", { query: "zanzibar" });
    expect(none).toMatchObject({ messages: [], summaries: [], count: 0 });
  });

  it("lcm_describe names a node's depth, summary and size", () => {
    const node = call("lcm_describe", { node_id: leafId() });
    expect(node).toMatchObject({ node_id: leafId(), kind: "leaf", depth: 0, parent: null, children: [] });
    expect(String(node.summary)).toContain("KX-48213");
  });

  it("lcm_expand restores the node's original messages, uids included, within max_tokens", () => {
    const expanded = call("lcm_expand", { node_id: leafId() });
    const messages = expanded.messages as Message[];
    expect(messages[0]).toEqual(history[1]);
    expect(messages.some((m) => String(m.content).includes(FACT))).toBe(true);
    const small = call("lcm_expand", { node_id: leafId(), max_tokens: 50 });
    expect(small.truncated).toBe(true);
    expect((small.messages as Message[]).length).toBeLessThan(messages.length);
  });

  it("answers an error JSON for an unknown node, an unknown tool and malformed arguments (TOOL-2)", () => {
    expect(call("lcm_describe", { node_id: "lcm_0000000000000000" }).error).toMatch(/not found/);
    expect(call("lcm_expand", { node_id: "nope" }).error).toMatch(/not found/);
    expect(call("lcm_teleport", {}).error).toMatch(/Unknown context engine tool/);
    for (const [name, args] of [
      ["lcm_grep", {}],
      ["lcm_grep", { query: 42 }],
      ["lcm_grep", { query: "x", limit: "ten" }],
      ["lcm_grep", { query: "x", scope: "everything" }],
      ["lcm_describe", null],
      ["lcm_expand", ["lcm_0000000000000000"]],
      ["lcm_expand", "{not json"],
      ["lcm_expand", { node_id: leafId(), max_tokens: -1 }],
    ] as const) {
      const raw = engine.handle_tool_call(name, args as unknown as Record<string, unknown>);
      expect(typeof raw).toBe("string");
      expect(JSON.parse(raw)).toHaveProperty("error");
    }
  });

  it("accepts arguments given as a JSON string", () => {
    expect(call("lcm_describe", JSON.stringify({ node_id: leafId() })).node_id).toBe(leafId());
  });
});
