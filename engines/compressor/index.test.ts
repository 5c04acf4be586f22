import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ContextEngine, isContextEngine, overridesHook } from "../../harness/contract/context-engine.ts";
import { estimateTokensRough } from "../../harness/contract/tokens.ts";
import type { Message } from "../../harness/contract/types.ts";
import { validateSequence } from "../../harness/contract/validate.ts";
import { messageText } from "../shared/message-text.ts";
import { TOOL_CALL_ID_STYLES } from "../../harness/testkit/tool-call-ids.ts";
import { sampleTranscript } from "../../harness/testkit/transcript.ts";
import type { Summarizer, SummaryRequest } from "../shared/summarizer.ts";
import { isCarrierUid } from "./carrier.ts";
import { CompressorEngine, register } from "./index.ts";

const errors = (messages: Message[]) => validateSequence(messages).filter((finding) => finding.severity === "error");
const lastUser = (messages: Message[]) => [...messages].reverse().find((message) => message.role === "user") as Message;
const carriers = (messages: Message[]) =>
  messages.filter((m) => isCarrierUid(m.message_uid) || (m._absorbed_message_uids ?? []).some(isCarrierUid));

/** The contract points every pass must keep (CMP-1..5, CMP-8). */
function expectSoundPass(input: Message[], output: Message[], threshold: number): void {
  expect(output.every((m) => ["system", "user", "assistant", "tool"].includes(String(m.role)))).toBe(true);
  expect(errors(output)).toEqual([]);
  if (input[0]?.role === "system") expect(output[0]).toEqual(input[0]);
  expect(estimateTokensRough(output)).toBeLessThanOrEqual(estimateTokensRough(input));
  if (estimateTokensRough(input) >= threshold) expect(estimateTokensRough(output)).toBeLessThan(threshold);
  const latest = lastUser(input);
  expect(output.some((m) => m.role === "user" && messageText(m).includes(messageText(latest)))).toBe(true);
  const inputByObject = new Set(input);
  for (const message of output) if (inputByObject.has(message)) expect(message.message_uid).toBe(message.message_uid);
  const kept = output.filter((m) => inputByObject.has(m));
  expect(kept.length).toBeGreaterThan(0);
}

function engine(contextLength = 16_000, settings: ConstructorParameters<typeof CompressorEngine>[0] = {}): CompressorEngine {
  return new CompressorEngine({ context_length: contextLength, ...settings });
}

describe("CompressorEngine as a plugin", () => {
  it("is a ContextEngine named compressor, instantiable with no arguments (ABC-1, REG-5)", () => {
    const instance = new CompressorEngine();
    expect(instance).toBeInstanceOf(ContextEngine);
    expect(isContextEngine(instance)).toBe(true);
    expect(instance.name).toBe("compressor");
    const meta = parse(readFileSync(new URL("./plugin.yaml", import.meta.url), "utf8")) as Record<string, unknown>;
    expect(meta["name"]).toBe("compressor");
    expect(typeof meta["description"]).toBe("string");
    expect(typeof meta["version"]).toBe("string");
  });

  it("registers one engine through register(ctx)", () => {
    const registered: ContextEngine[] = [];
    register({ register_context_engine: (e) => registered.push(e) });
    expect(registered).toHaveLength(1);
    expect(registered[0]).toBeInstanceOf(CompressorEngine);
  });

  it("inherits select_context and on_turn_complete, so the host skips them (SEL-1)", () => {
    expect(Object.hasOwn(CompressorEngine.prototype, "select_context")).toBe(false);
    expect(Object.hasOwn(CompressorEngine.prototype, "on_turn_complete")).toBe(false);
    expect(overridesHook(new CompressorEngine(), "select_context")).toBe(false);
    expect(overridesHook(new CompressorEngine(), "on_turn_complete")).toBe(false);
  });
});

describe("budget state", () => {
  it("takes last_* from usage, with or without optional buckets and with extra keys (ABC-2, ABC-3)", () => {
    const e = new CompressorEngine();
    e.update_from_response({ prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 });
    expect([e.last_prompt_tokens, e.last_completion_tokens, e.last_total_tokens]).toEqual([120, 30, 150]);
    e.update_from_response({ prompt_tokens: 7, completion_tokens: 1, total_tokens: 8, cache_read_tokens: 5, vendor_extra: { a: 1 } });
    expect([e.last_prompt_tokens, e.last_completion_tokens, e.last_total_tokens]).toEqual([7, 1, 8]);
  });

  it("sets thresholds from update_model (ABC-4)", () => {
    const e = new CompressorEngine();
    e.update_model({ model: "m", context_length: 100_000 });
    expect(e.context_length).toBe(100_000);
    expect(e.threshold_tokens).toBe(75_000);
    e.update_model({ model: "tiny", context_length: 1 });
    expect(e.threshold_tokens).toBe(1);
  });

  it("answers should_compress with a boolean, true at the threshold (ABC-6, ABC-7)", () => {
    const e = engine(10_000);
    expect(e.should_compress()).toBe(false);
    expect(e.should_compress(7_499)).toBe(false);
    expect(e.should_compress(7_500)).toBe(true);
    e.update_from_response({ prompt_tokens: 9_000, completion_tokens: 1, total_tokens: 9_001 });
    expect(e.should_compress()).toBe(true);
    expect(typeof new CompressorEngine().should_compress(Number.NaN)).toBe("boolean");
  });

  it("counts every completed compress, including one with nothing to do (ABC-5)", () => {
    const e = engine();
    e.compress([{ role: "user", content: "hello" }]);
    expect(e.compression_count).toBe(1);
    e.compress(sampleTranscript({ messages: 200, seed: 3 }));
    expect(e.compression_count).toBe(2);
  });

  it("survives repeated sessions, resets and model switches (LIFE-2)", () => {
    const e = engine(12_000);
    for (let session = 0; session < 3; session++) {
      e.on_session_start(`s${session}`, { context_length: 12_000 });
      e.update_from_response({ prompt_tokens: 10_000, completion_tokens: 5, total_tokens: 10_005 });
      const out = e.compress(sampleTranscript({ messages: 150, seed: session })) as Message[];
      expect(errors(out)).toEqual([]);
      e.on_session_end(`s${session}`, out);
    }
    expect(e.compression_count).toBe(3);
    e.on_session_reset();
    expect([e.last_prompt_tokens, e.last_completion_tokens, e.last_total_tokens, e.compression_count]).toEqual([0, 0, 0, 0]);
    e.update_model({ model: "bigger", context_length: 64_000 });
    expect(e.threshold_tokens).toBe(48_000);
  });

  it("clones with the same configuration and independent budget state (REG-6)", () => {
    const e = engine(20_000, { threshold_percent: 0.6 });
    e.update_from_response({ prompt_tokens: 11, completion_tokens: 2, total_tokens: 13 });
    const clone = e.clone_for_agent();
    expect(clone).not.toBe(e);
    expect(clone.threshold_percent).toBe(0.6);
    expect(clone.threshold_tokens).toBe(e.threshold_tokens);
    clone.update_model({ model: "m", context_length: 50_000 });
    clone.update_from_response({ prompt_tokens: 99, completion_tokens: 1, total_tokens: 100 });
    expect(e.context_length).toBe(20_000);
    expect(e.last_prompt_tokens).toBe(11);
    const out = clone.compress(sampleTranscript({ messages: 300, seed: 4 })) as Message[];
    expect(errors(out)).toEqual([]);
    expect(e.compression_count).toBe(0);
  });
});

describe("compress on every tool-call id shape (CMP-1..5, CMP-8, TCU-3)", () => {
  const styles = TOOL_CALL_ID_STYLES;
  for (const idStyle of styles) {
    it(`keeps a valid, smaller sequence with ${idStyle} ids`, () => {
      const input = sampleTranscript({ messages: 400, seed: 11, idStyle });
      expect(errors(input)).toEqual([]);
      const e = engine();
      const output = e.compress(input) as Message[];
      expectSoundPass(input, output, e.threshold_tokens);
      expect(carriers(output)).toHaveLength(1);
    });
  }

  it("keeps a parallel batch whole when the tail budget would cut through it", () => {
    const batch = (id: string) => ({ id, type: "function" as const, function: { name: "read_file", arguments: `{"path":"${id}.ts"}` } });
    const input: Message[] = [{ role: "system", content: "sys" }];
    for (let turn = 0; turn < 30; turn++) {
      input.push({ role: "user", content: `turn ${turn} ${"x".repeat(200)}` });
      input.push({ role: "assistant", content: null, tool_calls: [batch("a"), batch("b"), batch("c")] });
      for (const id of ["a", "b", "c"]) input.push({ role: "tool", tool_call_id: id, content: `${id} ${"y".repeat(150)}` });
      input.push({ role: "assistant", content: `done ${turn}` });
    }
    for (const contextLength of [3_000, 4_000, 5_000, 6_000, 8_000]) {
      const output = engine(contextLength, { protect_last_n: 4 }).compress(input) as Message[];
      expect(errors(output), `context ${contextLength}`).toEqual([]);
    }
  });

  it("clears a tool output larger than the threshold even in the tail, keeping the pair", () => {
    const input = sampleTranscript({ messages: 200, seed: 13 });
    input.push({ role: "user", content: "Dump the whole log." });
    input.push({ role: "assistant", content: null, tool_calls: [{ id: "call_0", type: "function", function: { name: "terminal", arguments: '{"command":"cat app.log"}' } }] });
    input.push({ role: "tool", tool_call_id: "call_0", content: "log line\n".repeat(10_000) });
    const e = engine(16_000);
    const output = e.compress(input) as Message[];
    expectSoundPass(input, output, e.threshold_tokens);
    const result = output.find((m) => m.role === "tool" && m.tool_call_id === "call_0" && messageText(m).includes("cat app.log"));
    expect(messageText(result as Message)).toMatch(/^\[terminal command=cat app.log\] 10001 lines/);
  });

  it("works when the current user message has no uid yet, and with uid-less legacy rows (CMP-9, UID-2)", () => {
    const input = sampleTranscript({ messages: 300, seed: 5 });
    input.push({ role: "user", content: "Current ask without a uid yet." });
    const legacy = { ...(input[3] as Message) };
    delete legacy.message_uid;
    input[3] = legacy;
    const e = engine();
    const output = e.compress(input) as Message[];
    expectSoundPass(input, output, e.threshold_tokens);
    expect(output.some((m) => messageText(m).includes("Current ask without a uid yet."))).toBe(true);
  });

  it("accepts two rows sharing a uid and content changed under a known uid (UID-4, UID-7)", () => {
    const input = sampleTranscript({ messages: 300, seed: 6 });
    const shared = input[1]?.message_uid as string;
    input.push({ role: "user", content: "Edited version of the first ask.", message_uid: shared });
    const e = engine();
    const output = e.compress(input) as Message[];
    expectSoundPass(input, output, e.threshold_tokens);
  });

  it("keeps unchanged messages as they were, uid included (CMP-8)", () => {
    const input = sampleTranscript({ messages: 300, seed: 8 });
    const output = engine().compress(input) as Message[];
    const byUid = new Map(input.map((m) => [m.message_uid, m]));
    const untouched = output.filter((m) => byUid.get(m.message_uid) === m);
    expect(untouched.length).toBeGreaterThan(5);
    expect(untouched.at(-1)).toBe(input.at(-1));
  });

  it("does not grow an input with nothing to compress (CMP-4)", () => {
    const input: Message[] = [
      { role: "system", content: "sys" },
      { role: "user", content: "hi" },
    ];
    const output = engine().compress(input) as Message[];
    expect(output).toEqual(input);
  });
});

describe("the summary carrier", () => {
  it("stamps its own uid and sits where the alternation stays valid", () => {
    const input = sampleTranscript({ messages: 300, seed: 12 });
    const output = engine().compress(input) as Message[];
    const [carrier] = carriers(output);
    expect(carrier).toBeDefined();
    const index = output.indexOf(carrier as Message);
    const before = output[index - 1]?.role;
    if (isCarrierUid(carrier?.message_uid)) {
      expect(carrier?.role).not.toBe(before === "tool" ? "tool" : before);
      expect(carrier?.role).not.toBe(output[index + 1]?.role);
    }
    for (let i = 1; i < output.length; i++) {
      const pair = [output[i - 1]?.role, output[i]?.role];
      expect(pair).not.toEqual(["user", "user"]);
    }
  });

  const alternating = (answerChars: number): Message[] => {
    const input: Message[] = [{ role: "system", content: "sys", message_uid: "0".repeat(32) }];
    for (let turn = 0; turn < 40; turn++) {
      input.push({ role: "user", content: `ask ${turn} ${"w ".repeat(60)}`, message_uid: turn.toString(16).padStart(32, "1") });
      input.push({ role: "assistant", content: `answer ${turn} ${"v".repeat(answerChars)}`, message_uid: turn.toString(16).padStart(32, "2") });
    }
    return input;
  };

  it("pulls a cheap unit into the tail rather than rewrite the first tail message", () => {
    const input = alternating(100);
    const e = engine(4_000, { protect_first_n: 0 });
    const output = e.compress(input) as Message[];
    expect(errors(output)).toEqual([]);
    expect(output[1]?.role).toBe("user");
    expect(isCarrierUid(output[1]?.message_uid)).toBe(true);
    expect(output[2]?.role).toBe("assistant");
    expect(output.slice(2).every((m) => input.includes(m))).toBe(true);
  });

  it("is folded into the first tail message when both roles would collide, keeping that message's uid", () => {
    const input = alternating(1_600);
    const e = engine(4_000, { protect_first_n: 0 });
    const output = e.compress(input) as Message[];
    expect(errors(output)).toEqual([]);
    expect(output[1]?.role).toBe("user");
    const merged = output[1] as Message;
    expect(isCarrierUid(merged.message_uid)).toBe(false);
    expect(merged._absorbed_message_uids?.some(isCarrierUid)).toBe(true);
    const original = input.find((m) => m.message_uid === merged.message_uid) as Message;
    expect(messageText(merged).endsWith(messageText(original))).toBe(true);
  });

  it("updates the previous summary on a later pass instead of stacking a second one", () => {
    const e = engine();
    const first = e.compress(sampleTranscript({ messages: 300, seed: 21 })) as Message[];
    const [carrier1] = carriers(first);
    const uid1 = isCarrierUid(carrier1?.message_uid) ? carrier1?.message_uid : carrier1?._absorbed_message_uids?.find(isCarrierUid);
    const more = sampleTranscript({ messages: 300, seed: 22, systemPrompt: "unused" }).slice(1);
    const second = e.compress([...first, ...more]) as Message[];
    expect(errors(second)).toEqual([]);
    const found = carriers(second);
    expect(found).toHaveLength(1);
    const text = messageText(found[0] as Message);
    expect(text.split("## User asks").length).toBe(2);
    expect(text.match(/- Goal: /g)).toHaveLength(1);
    const uid2 = isCarrierUid(found[0]?.message_uid) ? found[0]?.message_uid : found[0]?._absorbed_message_uids?.find(isCarrierUid);
    expect(uid2).toBe(uid1);
  });

  it("stops protecting the first turns after the first compaction", () => {
    const e = engine();
    const input = sampleTranscript({ messages: 300, seed: 23 });
    const first = e.compress(input) as Message[];
    expect(first[1]).toBe(input[1]);
    const second = e.compress([...first, ...sampleTranscript({ messages: 300, seed: 24 }).slice(1)]) as Message[];
    expect(second.includes(input[1] as Message)).toBe(false);
    expect(messageText(carriers(second)[0] as Message)).toContain("Goal: Turn 0:");
  });

  it("is idempotent in size: compressing the output again does not grow it", () => {
    const e = engine();
    const once = e.compress(sampleTranscript({ messages: 400, seed: 25 })) as Message[];
    const twice = e.compress(once) as Message[];
    expect(estimateTokensRough(twice)).toBeLessThanOrEqual(estimateTokensRough(once));
    expect(carriers(twice)).toHaveLength(1);
  });
});

describe("focus_topic (CMP-6, CMP-7)", () => {
  it("keeps more facts about the focus topic than without it", () => {
    const input = sampleTranscript({ messages: 600, seed: 31 });
    const count = (messages: Message[]) => messages.map(messageText).join("\n").match(/DAT-\d+/g)?.length ?? 0;
    const plain = engine(12_000).compress(input) as Message[];
    const focused = engine(12_000).compress(input, null, "database") as Message[];
    expect(count(focused)).toBeGreaterThan(count(plain));
    expect(messageText(carriers(focused)[0] as Message)).toContain("## Focus: database");
  });
});

describe("anti-thrashing", () => {
  it("blocks automatic compaction after two passes that stay over the threshold, and says why", () => {
    const e = engine(4_000);
    const input: Message[] = [
      { role: "system", content: "S".repeat(14_000) },
      ...sampleTranscript({ messages: 60, seed: 41 }).slice(1),
    ];
    expect(e.should_compress(3_500)).toBe(true);
    e.compress(input);
    expect(e.should_compress_info().blocked).toBe(false);
    e.compress(input);
    expect(e.should_compress(3_500)).toBe(false);
    const info = e.should_compress_info();
    expect(info.blocked).toBe(true);
    expect(info.reason).toBe("ineffective");
    e.on_session_reset();
    expect(e.should_compress(3_500)).toBe(true);
  });

  it("judges a pass by the next real usage and unblocks after one that works", () => {
    const e = engine(16_000);
    const input = sampleTranscript({ messages: 300, seed: 42 });
    for (let pass = 0; pass < 2; pass++) {
      e.compress(input);
      e.update_from_response({ prompt_tokens: 13_000, completion_tokens: 10, total_tokens: 13_010 });
    }
    expect(e.should_compress(13_000)).toBe(false);
    expect(e.should_compress_info().reason).toBe("ineffective");
    e.compress(input, null, null, { force: true });
    e.update_from_response({ prompt_tokens: 4_000, completion_tokens: 10, total_tokens: 4_010 });
    expect(e.should_compress_info().blocked).toBe(false);
    expect(e.should_compress(13_000)).toBe(true);
  });

  it("does not count a usage report that follows no compaction", () => {
    const e = engine(16_000);
    for (let i = 0; i < 5; i++) e.update_from_response({ prompt_tokens: 15_000, completion_tokens: 1, total_tokens: 15_001 });
    expect(e.should_compress_info().blocked).toBe(false);
  });
});

describe("a plugged-in summarizer that fails", () => {
  for (const [label, summarizer] of [
    ["throws", { summarize: () => { throw new Error("401 from the summary model"); } }],
    ["rejects", { summarize: async () => { throw new Error("summary model timed out"); } }],
    ["returns nothing", { summarize: () => "   " }],
  ] as Array<[string, Summarizer]>) {
    it(`falls back to the extractive summary when it ${label}`, async () => {
      const e = engine(16_000, { summarizer });
      const input = sampleTranscript({ messages: 300, seed: 53 });
      const output = (await e.compress(input)) as Message[];
      expectSoundPass(input, output, e.threshold_tokens);
      expect(messageText(carriers(output)[0] as Message)).toContain("## Actions taken");
      expect(e.compression_count).toBe(1);
    });
  }
});

describe("cancellation and concurrency", () => {
  it("throws without counting when the signal is already aborted", () => {
    const e = engine();
    const controller = new AbortController();
    controller.abort(new Error("host timeout"));
    expect(() => e.compress(sampleTranscript({ messages: 200, seed: 51 }), null, null, { signal: controller.signal })).toThrow("host timeout");
    expect(e.compression_count).toBe(0);
  });

  it("discards a pass aborted while its summary is being written", async () => {
    const controller = new AbortController();
    const slow: Summarizer = {
      summarize: async () => {
        controller.abort(new Error("timed out"));
        return "## User asks\n- late";
      },
    };
    const e = engine(16_000, { summarizer: slow });
    await expect(e.compress(sampleTranscript({ messages: 300, seed: 52 }), null, null, { signal: controller.signal })).rejects.toThrow("timed out");
    expect(e.compression_count).toBe(0);
  });

  it("serves concurrent sessions on one instance without mixing them (THR-1, THR-2)", async () => {
    const delays = [5, 1];
    let call = 0;
    const asyncSummarizer: Summarizer = {
      summarize: async (request: SummaryRequest) => {
        const delay = delays[call++ % delays.length] as number;
        await new Promise((resolve) => setTimeout(resolve, delay));
        return `## User asks\n${request.messages.filter((m) => m.role === "user").map((m) => `- ${messageText(m).slice(0, 30)}`).join("\n")}`;
      },
    };
    const e = engine(16_000, { summarizer: asyncSummarizer });
    const a = sampleTranscript({ messages: 300, seed: 61, systemPrompt: "Session ALPHA." });
    const b = sampleTranscript({ messages: 300, seed: 62, systemPrompt: "Session BRAVO." }).map((m) =>
      m.role === "user" ? { ...m, content: `BRAVO ${messageText(m)}` } : m,
    );
    const [outA, outB] = (await Promise.all([e.compress(a), e.compress(b)])) as [Message[], Message[]];
    expect(outA.map(messageText).join("\n")).not.toContain("BRAVO");
    expect(outB.map(messageText).join("\n")).toContain("BRAVO");
    expect(outB[0]?.content).toBe("Session BRAVO.");
    expect(e.compression_count).toBe(2);
  });
});

describe("tool-output pruning", () => {
  it("deduplicates identical outputs and replaces old large ones with a one-line description", () => {
    const big = "line of output\n".repeat(100);
    const input: Message[] = [{ role: "system", content: "sys" }];
    for (let i = 0; i < 30; i++) {
      input.push({ role: "user", content: `step ${i}` });
      input.push({ role: "assistant", content: null, tool_calls: [{ id: `c${i}`, type: "function", function: { name: "terminal", arguments: `{"command":"make ${i}"}` } }] });
      input.push({ role: "tool", tool_call_id: `c${i}`, content: i % 2 === 0 ? big : `${big}${i}` });
    }
    const e = engine(16_000);
    const [pruned, count] = e.prune_tool_results_only(input);
    expect(count).toBeGreaterThan(0);
    expect(errors(pruned)).toEqual([]);
    const contents = pruned.filter((m) => m.role === "tool").map(messageText);
    expect(contents.filter((c) => c.startsWith("[Duplicate tool output")).length).toBeGreaterThan(0);
    expect(contents.some((c) => c.startsWith("[terminal command=make 1] 101 lines"))).toBe(true);
    expect(pruned.at(-1)).toBe(input.at(-1));
    expect(estimateTokensRough(pruned)).toBeLessThan(estimateTokensRough(input));
  });

  it("keeps shortened tool-call arguments valid JSON", () => {
    const input: Message[] = [{ role: "system", content: "sys" }];
    for (let i = 0; i < 30; i++) {
      input.push({ role: "user", content: `write ${i}` });
      input.push({ role: "assistant", content: null, tool_calls: [{ id: `w${i}`, type: "function", function: { name: "write_file", arguments: JSON.stringify({ path: `f${i}.ts`, content: "z".repeat(2_000) }) } }] });
      input.push({ role: "tool", tool_call_id: `w${i}`, content: "ok" });
    }
    const [pruned] = engine().prune_tool_results_only(input);
    const shrunk = pruned.flatMap((m) => m.tool_calls ?? []).filter((c) => c.function.arguments.length < 500);
    expect(shrunk.length).toBeGreaterThan(0);
    for (const call of shrunk) expect(() => JSON.parse(call.function.arguments)).not.toThrow();
    expect(errors(pruned)).toEqual([]);
  });
});
