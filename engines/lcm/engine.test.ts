import { describe, expect, it } from "vitest";
import { isContextEngine } from "../../harness/contract/context-engine.ts";
import { estimateTokensRough } from "../../harness/contract/tokens.ts";
import type { Message } from "../../harness/contract/types.ts";
import { validateSequence } from "../../harness/contract/validate.ts";
import { TOOL_CALL_ID_STYLES } from "../../harness/testkit/tool-call-ids.ts";
import { sampleTranscript } from "../../harness/testkit/transcript.ts";
import { isCarrier, parseCarrier } from "./carrier.ts";
import { LcmEngine, register } from "./index.ts";
import { filler, fillerTurns, transcript } from "./test-transcripts.ts";

const errors = (messages: Message[]) => validateSequence(messages).filter((f) => f.severity === "error");

function engineWithWindow(contextLength = 4_000): LcmEngine {
  const engine = new LcmEngine();
  engine.update_model({ model: "test-model", context_length: contextLength });
  return engine;
}

describe("lcm engine contract basics", () => {
  it("is a ContextEngine named lcm, instantiable with no arguments and registrable (ABC-1, REG-5)", () => {
    const engine = new LcmEngine();
    expect(isContextEngine(engine)).toBe(true);
    expect(engine.name).toBe("lcm");
    const registered: unknown[] = [];
    register({ register_context_engine: (e) => registered.push(e) });
    expect(registered).toHaveLength(1);
    expect((registered[0] as LcmEngine).name).toBe("lcm");
  });

  it("tracks usage, with or without the optional buckets (ABC-2, ABC-3)", () => {
    const engine = engineWithWindow();
    engine.update_from_response({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, surprise: "x" });
    expect([engine.last_prompt_tokens, engine.last_completion_tokens, engine.last_total_tokens]).toEqual([10, 5, 15]);
  });

  it("decides compaction from the threshold with or without an argument (ABC-4, ABC-6, ABC-7)", () => {
    const engine = engineWithWindow(4_000);
    expect(engine.threshold_tokens).toBe(3_000);
    expect(engine.should_compress(3_000)).toBe(true);
    expect(engine.should_compress(100)).toBe(false);
    expect(engine.should_compress()).toBe(false);
    engine.update_from_response({ prompt_tokens: 3_500, completion_tokens: 1, total_tokens: 3_501 });
    expect(engine.should_compress()).toBe(true);
  });

  it("survives reset and model changes (LIFE-2)", async () => {
    const engine = engineWithWindow();
    await engine.compress(transcript("s", fillerTurns(2)));
    engine.update_from_response({ prompt_tokens: 9, completion_tokens: 1, total_tokens: 10 });
    engine.on_session_reset();
    expect([engine.last_prompt_tokens, engine.compression_count]).toEqual([0, 0]);
    engine.update_model({ model: "bigger", context_length: 200_000 });
    expect(engine.threshold_tokens).toBe(150_000);
  });

  it("ingests a turn without touching its messages, with usage null (OTC-4, OTC-5)", () => {
    const engine = engineWithWindow();
    engine.on_session_start("s", {});
    const messages = transcript("s", fillerTurns(3));
    const frozen = structuredClone(messages);
    const deepFreeze = (value: unknown): void => {
      if (value && typeof value === "object") {
        Object.freeze(value);
        for (const inner of Object.values(value)) deepFreeze(inner);
      }
    };
    deepFreeze(messages);
    const info = { turn_id: "s:task-0:00000000", task_id: "task-0", api_call_count: 0, interrupted: true, failed: false, turn_exit_reason: "interrupted" };
    expect(() => engine.on_turn_complete(messages, null, info)).not.toThrow();
    expect(messages).toEqual(frozen);
    const found = JSON.parse(engine.handle_tool_call("lcm_grep", { query: "Step 2" }, { messages })) as { messages: unknown[] };
    expect(found.messages.length).toBeGreaterThan(0);
  });

  it("says its store is in memory before any session starts", () => {
    const status = new LcmEngine().get_status();
    expect(status.lcm_store_persistent).toBe(false);
    expect(String(status.lcm_store_note)).toMatch(/in memory/);
  });
});

describe("lcm compress (CMP)", () => {
  it("returns system + one carrier naming its nodes + a fresh tail, below threshold and smaller than the input", async () => {
    const engine = engineWithWindow();
    const input = transcript("s", fillerTurns(24));
    const tokensIn = estimateTokensRough(input);
    expect(tokensIn).toBeGreaterThan(engine.threshold_tokens);
    const output = await engine.compress(structuredClone(input), tokensIn, "orion");
    expect(engine.compression_count).toBe(1);
    expect(errors(output)).toEqual([]);
    expect(output[0]).toEqual(input[0]);
    expect(isCarrier(output[1] as Message)).toBe(true);
    expect(parseCarrier(output[1] as Message).length).toBeGreaterThan(0);
    expect(estimateTokensRough(output)).toBeLessThan(engine.threshold_tokens);
    // The latest user message survives, and kept messages keep their uid (CMP-5, CMP-8).
    const lastUser = input.findLast((m) => m.role === "user") as Message;
    expect(output).toContainEqual(lastUser);
    for (const message of output.slice(2)) expect(input.some((m) => m.message_uid === message.message_uid)).toBe(true);
  });

  it("works when the current user message has no uid yet (CMP-9, UID-2)", async () => {
    const engine = engineWithWindow();
    const input = [...transcript("s", fillerTurns(20)), { role: "user", content: "And now the next step?" }];
    const output = await engine.compress(input);
    expect(errors(output)).toEqual([]);
    expect(output.at(-1)).toEqual({ role: "user", content: "And now the next step?" });
  });

  it("keeps tool pairs valid when provider ids repeat: a constant id every turn and identical ids in one batch (TCU-3, CMP-2)", async () => {
    const engine = engineWithWindow();
    const turns = fillerTurns(16).map((turn, t) => ({
      ...turn,
      calls:
        t % 2 === 0
          ? [{ id: "call_0", name: "read_file", args: { path: `src/${t}.ts` }, result: `contents ${t}` }]
          : [
              { id: "call_abcdefabcdef", name: "run", args: { cmd: "ls" }, result: `a ${t}` },
              { id: "call_abcdefabcdef", name: "run", args: { cmd: "ls" }, result: `b ${t}` },
            ],
    }));
    const input = transcript("s", turns);
    expect(errors(input)).toEqual([]);
    for (let tail = 0; tail < 6; tail++) {
      // Cut the history at several points so the tail boundary falls on different units.
      const prefix = input.slice(0, input.length - tail);
      const output = await new LcmEngine({ context_length: 4_000 }).compress(prefix);
      expect(errors(output)).toEqual([]);
    }
    expect(errors(await engine.compress(input))).toEqual([]);
  });

  it("shortens a tool result larger than the tail budget and keeps the original reachable (CMP-5)", async () => {
    const engine = engineWithWindow();
    engine.on_session_start("s", {});
    const middle = "the needle phrase zircon-harbor-7731 sits in the middle";
    const huge = `${filler(1, 900)} ${middle} ${filler(2, 900)}`;
    // Mid-turn: the huge result is the newest message, so it cannot leave the tail.
    const history = transcript("s", [...fillerTurns(3), { user: "Run the big job", reply: "Done.", calls: [{ id: "call_0", name: "run", args: {}, result: huge }] }]).slice(0, -1);
    expect(estimateTokensRough(history)).toBeGreaterThan(engine.threshold_tokens);
    const output = await engine.compress(structuredClone(history));
    expect(errors(output)).toEqual([]);
    expect(estimateTokensRough(output)).toBeLessThan(engine.threshold_tokens);
    const result = output.find((m) => m.role === "tool") as Message;
    expect(String(result.content)).toMatch(/^\[LCM: large tool output moved/);
    expect(String(result.content)).not.toContain("zircon");
    engine.on_session_start("s", { boundary_reason: "compression", old_session_id: "s" });
    const found = JSON.parse(engine.handle_tool_call("lcm_grep", { query: "zircon-harbor-7731" }, { messages: output })) as { messages: unknown[] };
    expect(found.messages).toHaveLength(1);
  });

  it("summarizes the older steps of a current turn too long for the tail, keeping its user message", async () => {
    const engine = engineWithWindow();
    const history = transcript("s", fillerTurns(2));
    history.push({ role: "user", content: "Investigate the whole repository", message_uid: "a".repeat(32) });
    for (let step = 0; step < 14; step++) {
      history.push({ role: "assistant", content: null, tool_calls: [{ id: "call_0", type: "function", function: { name: "read", arguments: `{"step":${step}}` } }] });
      history.push({ role: "tool", tool_call_id: "call_0", content: filler(step, 120) });
    }
    expect(estimateTokensRough(history)).toBeGreaterThan(engine.threshold_tokens);
    const output = await engine.compress(structuredClone(history));
    expect(errors(output)).toEqual([]);
    expect(estimateTokensRough(output)).toBeLessThan(engine.threshold_tokens);
    expect(output).toContainEqual(history[history.length - 29]);
    expect(output.at(-1)).toEqual(history.at(-1));
  });

  it("keeps every tool-call id style of the shared sample transcripts valid (TCU-3)", async () => {
    for (const idStyle of TOOL_CALL_ID_STYLES) {
      const input = sampleTranscript({ messages: 160, seed: 3, idStyle });
      const output = await engineWithWindow(8_000).compress(structuredClone(input));
      expect(output).not.toBe(input);
      expect(errors(output)).toEqual([]);
    }
  });

  it("leaves a list with nothing to compact as it is, and still counts the call (ABC-5)", async () => {
    const engine = engineWithWindow();
    const input = transcript("s", fillerTurns(1));
    const output = await engine.compress(input);
    expect(output).toBe(input);
    expect(engine.compression_count).toBe(1);
  });

  it("folds earlier summaries into condensed nodes over repeated passes", async () => {
    const engine = new LcmEngine({ condensationFanin: 2 });
    engine.update_model({ model: "m", context_length: 4_000 });
    engine.on_session_start("s", {});
    let history = transcript("s", fillerTurns(12));
    for (let pass = 0; pass < 3; pass++) {
      history = await engine.compress(history);
      engine.on_session_start("s", { boundary_reason: "compression", old_session_id: "s" });
      history = [...history, ...transcript("s", fillerTurns(10, 50 + pass * 10)).slice(1).map((m) => ({ ...m, message_uid: `${String(m.message_uid).slice(0, 30)}${pass}0` }))];
    }
    const depths = parseCarrier(history.find(isCarrier) as Message).map((n) => n.depth);
    expect(Math.max(...depths)).toBeGreaterThanOrEqual(1);
    expect(errors(history)).toEqual([]);
  });
});
