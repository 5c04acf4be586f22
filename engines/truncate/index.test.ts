import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ContextEngine, overridesHook } from "../../harness/contract/context-engine.ts";
import { estimateTokensRough } from "../../harness/contract/tokens.ts";
import type { Message } from "../../harness/contract/types.ts";
import { validateSequence } from "../../harness/contract/validate.ts";
import { TOOL_CALL_ID_STYLES } from "../../harness/testkit/tool-call-ids.ts";
import { sampleTranscript } from "../../harness/testkit/transcript.ts";
import { TruncateEngine, register } from "./index.ts";

const errors = (messages: Message[]) => validateSequence(messages).filter((finding) => finding.severity === "error");
const lastUser = (messages: Message[]) => [...messages].reverse().find((m) => m.role === "user");

describe("TruncateEngine as a plugin", () => {
  it("is a ContextEngine named truncate that registers itself and inherits the optional hooks", () => {
    const engine = new TruncateEngine();
    expect(engine).toBeInstanceOf(ContextEngine);
    expect(engine.name).toBe("truncate");
    const meta = parse(readFileSync(new URL("./plugin.yaml", import.meta.url), "utf8")) as Record<string, unknown>;
    expect(meta["name"]).toBe("truncate");
    const registered: ContextEngine[] = [];
    register({ register_context_engine: (e) => registered.push(e) });
    expect(registered[0]).toBeInstanceOf(TruncateEngine);
    expect(Object.hasOwn(TruncateEngine.prototype, "select_context")).toBe(false);
    expect(overridesHook(engine, "on_turn_complete")).toBe(false);
  });

  it("keeps the budget counters of the contract (ABC-2, ABC-4, ABC-6)", () => {
    const engine = new TruncateEngine();
    engine.update_from_response({ prompt_tokens: 5, completion_tokens: 2, total_tokens: 7, extra: true });
    expect([engine.last_prompt_tokens, engine.last_completion_tokens, engine.last_total_tokens]).toEqual([5, 2, 7]);
    engine.update_model({ model: "m", context_length: 8_000 });
    expect(engine.threshold_tokens).toBe(6_000);
    expect(engine.should_compress(6_000)).toBe(true);
    expect(engine.should_compress(10)).toBe(false);
  });
});

describe("clone_for_agent (REG-6)", () => {
  it("carries the configuration and works on its own with independent budget state", () => {
    const engine = new TruncateEngine({ context_length: 8_000, target_ratio: 0.3, threshold_percent: 0.6 });
    const clone = engine.clone_for_agent();
    expect(clone).not.toBe(engine);
    expect(clone.threshold_percent).toBe(0.6);
    expect(clone.budgetFor(0)).toBe(engine.budgetFor(0));
    clone.update_model({ model: "m", context_length: 50_000 });
    expect(engine.context_length).toBe(8_000);
    expect(errors(clone.compress(sampleTranscript({ messages: 300, seed: 74 })))).toEqual([]);
    expect(engine.compression_count).toBe(0);
  });
});

describe("truncate", () => {
  const styles = TOOL_CALL_ID_STYLES;
  for (const idStyle of styles) {
    it(`drops the oldest turns to the budget and keeps tool pairs whole with ${idStyle} ids`, () => {
      const input = sampleTranscript({ messages: 500, seed: 71, idStyle });
      const engine = new TruncateEngine({ context_length: 16_000 });
      const output = engine.compress(input);
      expect(errors(output)).toEqual([]);
      expect(output[0]).toBe(input[0]);
      expect(estimateTokensRough(output)).toBeLessThanOrEqual(engine.budgetFor(estimateTokensRough(input)));
      expect(lastUser(output)).toBe(lastUser(input));
      // No summary: every message comes from the input, in order, and what is kept is a suffix of turns.
      const positions = output.map((m) => input.indexOf(m));
      expect(positions.every((p) => p >= 0)).toBe(true);
      expect(positions.slice(1)).toEqual(Array.from({ length: output.length - 1 }, (_, k) => (positions[1] as number) + k));
      expect(output[1]?.role).toBe("user");
      expect(engine.compression_count).toBe(1);
    });
  }

  it("returns the input unchanged when it already fits", () => {
    const input = sampleTranscript({ messages: 20, seed: 72 });
    const output = new TruncateEngine({ context_length: 200_000 }).compress(input);
    expect(output).toEqual(input);
  });

  it("cuts inside an oversized latest turn by whole units, keeping its user message", () => {
    const input: Message[] = [{ role: "system", content: "sys" }, { role: "user", content: "do everything" }];
    for (let i = 0; i < 40; i++) {
      input.push({ role: "assistant", content: null, tool_calls: [{ id: "call_0", type: "function", function: { name: "t", arguments: "{}" } }, { id: "call_0", type: "function", function: { name: "t", arguments: "{}" } }] });
      input.push({ role: "tool", tool_call_id: "call_0", content: "r".repeat(400) });
      input.push({ role: "tool", tool_call_id: "call_0", content: "s".repeat(400) });
    }
    const engine = new TruncateEngine({ context_length: 4_000 });
    const output = engine.compress(input);
    expect(errors(output)).toEqual([]);
    expect(output.slice(0, 2)).toEqual(input.slice(0, 2));
    expect(estimateTokensRough(output)).toBeLessThanOrEqual(engine.budgetFor(estimateTokensRough(input)));
    expect(output.at(-1)).toBe(input.at(-1));
  });

  it("honours an aborted signal", () => {
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    const engine = new TruncateEngine({ context_length: 4_000 });
    expect(() => engine.compress(sampleTranscript({ messages: 50, seed: 73 }), null, null, { signal: controller.signal })).toThrow("stop");
    expect(engine.compression_count).toBe(0);
  });
});
