import { describe, expect, it } from "vitest";
import { estimateTokensExact } from "../contract/tokens-exact.ts";
import type { Message } from "../contract/types.ts";
import type { AssistantStep } from "../../scenarios/format.ts";
import { PrefixTrie, PromptCache } from "./prompt-cache.ts";
import { SimulatedProvider } from "./simulated-provider.ts";

const conversation: Message[] = [
  { role: "system", content: "You are terse." },
  { role: "user", content: "What is two plus two?" },
  { role: "assistant", content: "Four." },
  { role: "user", content: "And three plus three?" },
];
const reply: AssistantStep = { content: "Six." };

describe("SimulatedProvider", () => {
  it("counts prompt tokens with the exact tokenizer and reports every canonical usage bucket", () => {
    const provider = new SimulatedProvider({ contextLength: 10_000 });
    const result = provider.respond({ session: "s", messages: conversation, cacheBreakpoints: [0, 3], step: reply, attempt: 0 });
    expect(result.kind).toBe("ok");
    if (result.kind !== "ok") return;
    expect(result.usage.prompt_tokens).toBe(estimateTokensExact(conversation));
    expect(result.usage.total_tokens).toBe(result.usage.prompt_tokens + result.usage.completion_tokens);
    expect(Object.keys(result.usage).sort()).toEqual(
      ["cache_read_tokens", "cache_write_tokens", "completion_tokens", "input_tokens", "output_tokens", "prompt_tokens", "reasoning_tokens", "total_tokens"].sort(),
    );
    expect(result.message).toEqual({ role: "assistant", content: "Six." });
  });

  it("emits scripted tool calls exactly as the model wrote them", () => {
    const provider = new SimulatedProvider({ contextLength: 10_000 });
    const step: AssistantStep = { content: null, toolCalls: [{ id: "call_x", name: "terminal", arguments: '{"cmd":"ls"}', result: "a b" }] };
    const result = provider.respond({ session: "s", messages: conversation, cacheBreakpoints: [], step, attempt: 0 });
    expect(result.kind === "ok" && result.message.tool_calls).toEqual([{ id: "call_x", type: "function", function: { name: "terminal", arguments: '{"cmd":"ls"}' } }]);
  });

  it("rejects a request over the context window as an overflow, whatever the script says", () => {
    const provider = new SimulatedProvider({ contextLength: estimateTokensExact(conversation) - 1 });
    const result = provider.respond({ session: "s", messages: conversation, cacheBreakpoints: [0], step: reply, attempt: 3 });
    expect(result).toMatchObject({ kind: "overflow", promptTokens: estimateTokensExact(conversation), cacheReadTokens: 0, cacheWriteTokens: 0 });
  });

  const faults: Array<[AssistantStep["fault"], number, string]> = [
    [{ kind: "transient", failures: 2 }, 0, "transient"],
    [{ kind: "transient", failures: 2 }, 1, "transient"],
    [{ kind: "transient", failures: 2 }, 2, "ok"],
    [{ kind: "context-overflow" }, 0, "overflow"],
    [{ kind: "context-overflow" }, 1, "ok"],
    [{ kind: "content-policy" }, 0, "content-policy"],
    [{ kind: "terminal" }, 0, "terminal"],
    [{ kind: "interrupted" }, 0, "interrupted"],
    [{ kind: "slow", delayMs: 30_000 }, 0, "ok"],
  ];
  for (const [fault, attempt, kind] of faults) {
    it(`${fault!.kind} on attempt ${attempt} → ${kind}`, () => {
      const provider = new SimulatedProvider({ contextLength: 10_000 });
      const result = provider.respond({ session: "s", messages: conversation, cacheBreakpoints: [0], step: fault === undefined ? reply : { ...reply, fault }, attempt });
      expect(result.kind).toBe(kind);
      if (fault!.kind === "slow" && result.kind === "ok") expect(result.simulatedMs).toBe(30_000);
    });
  }

  it("reads the longest prefix an earlier request of the same session wrote, and keeps sessions apart", () => {
    const provider = new SimulatedProvider({ contextLength: 10_000 });
    const first = provider.respond({ session: "a", messages: conversation.slice(0, 2), cacheBreakpoints: [0, 1], step: reply, attempt: 0 });
    expect(first).toMatchObject({ cacheReadTokens: 0 });
    expect(first.cacheWriteTokens).toBe(first.promptTokens - 3);
    const second = provider.respond({ session: "a", messages: conversation, cacheBreakpoints: [0, 1, 2, 3], step: reply, attempt: 0 });
    expect(second.cacheReadTokens).toBe(first.cacheWriteTokens);
    expect(second.cacheWriteTokens).toBe(second.promptTokens - 3 - second.cacheReadTokens);
    const otherSession = provider.respond({ session: "b", messages: conversation, cacheBreakpoints: [0], step: reply, attempt: 0 });
    expect(otherSession.cacheReadTokens).toBe(0);
    const changedSystem = provider.respond({
      session: "a",
      messages: [{ role: "system", content: "You are verbose." }, ...conversation.slice(1)],
      cacheBreakpoints: [0],
      step: reply,
      attempt: 0,
    });
    expect(changedSystem.cacheReadTokens).toBe(0);
  });
});

describe("SimulatedProvider: what counts as the same message", () => {
  const ask = (provider: SimulatedProvider, messages: Message[], breakpoints: number[] = [messages.length - 1]) =>
    provider.respond({ session: "s", messages, cacheBreakpoints: breakpoints, step: reply, attempt: 0 });

  it("counts each message as itself when its other fields differ only by a missing field, null or an empty string", () => {
    const variants: Message[] = [
      { role: "user", content: "hello there" },
      { role: "user", content: "hello there", name: "" },
      { role: "user", content: "hello there", name: null } as unknown as Message,
      { role: "user", content: "hello there", name: "a\u0001b" },
      { role: "tool", content: "hello there", tool_call_id: "a", name: "b" },
      { role: "tool", content: "hello there", tool_call_id: "a\u0001", name: "\u0001b" },
    ];
    const provider = new SimulatedProvider({ contextLength: 10_000 });
    for (const message of variants) expect(ask(provider, [message]).promptTokens).toBe(estimateTokensExact([message]));
    // Each is a prefix of its own: none reads what another stored.
    const fresh = new SimulatedProvider({ contextLength: 10_000 });
    for (const message of variants) expect(ask(fresh, [message]).cacheReadTokens).toBe(0);
  });

  it("answers a session's next request as a fresh provider would, however a message at the same position changed", () => {
    const call = { id: "c1", type: "function" as const, function: { name: "read_file", arguments: '{"path":"a"}' } };
    const base: Message[] = [
      { role: "system", content: "You are terse." },
      { role: "user", content: "read it" },
      { role: "assistant", content: "", tool_calls: [call] },
      { role: "tool", content: "text of a", tool_call_id: "c1" },
    ];
    const changed: Array<(messages: Message[]) => void> = [
      (m) => void (m[1]!.content = "read it again, twice over"),
      (m) => void (m[2]!.tool_calls![0]!.function.arguments = '{"path":"a much longer path/to/a/file"}'),
      (m) => void (m[2]!.tool_calls = [{ function: { arguments: '{"path":"a"}', name: "read_file" }, type: "function", id: "c1" }]),
      (m) => void (m[3]!.name = "read_file"),
      (m) => void (m[3]!.tool_call_id = "c2"),
      (m) => void (m[0] = { content: "You are terse.", role: "system" }),
      (m) => void (m[1]!.content = [{ type: "text", text: "read it" }]),
      (m) => void m.splice(1, 1),
    ];
    for (const change of changed) {
      const next = structuredClone(base);
      change(next);
      const provider = new SimulatedProvider({ contextLength: 10_000 });
      ask(provider, structuredClone(base), [3]);
      const answered = ask(provider, next, [next.length - 1]);
      const fresh = new SimulatedProvider({ contextLength: 10_000 });
      expect(answered.promptTokens, String(change)).toBe(estimateTokensExact(next));
      expect(answered.promptTokens, String(change)).toBe(ask(fresh, next, [next.length - 1]).promptTokens);
    }
  });

  it("keys a message by its canonical JSON: a tool call written with its keys in another order reads the prefix the first one stored", () => {
    const call = { id: "c1", type: "function" as const, function: { name: "read_file", arguments: '{"path":"a"}' } };
    const reordered = { function: { arguments: '{"path":"a"}', name: "read_file" }, type: "function" as const, id: "c1" };
    const first: Message[] = [{ role: "user", content: "read it" }, { role: "assistant", content: "", tool_calls: [call] }];
    const second: Message[] = [{ role: "user", content: "read it" }, { role: "assistant", content: "", tool_calls: [reordered] }, { role: "tool", content: "text of a", tool_call_id: "c1" }];
    const provider = new SimulatedProvider({ contextLength: 10_000 });
    expect(ask(provider, first).cacheWriteTokens).toBeGreaterThan(0);
    // The whole stored prefix is read, counted as this request writes it (the reordered call's text is another text).
    expect(ask(provider, second).cacheReadTokens).toBe(estimateTokensExact(second.slice(0, 2)) - 3);
  });
});

describe("PromptCache", () => {
  it("stores prefixes only at breakpoints", () => {
    const cache = new PromptCache();
    const trie = new PrefixTrie();
    const chain = trie.chain(["a", "b", "c"], [10, 20, 30]);
    expect(cache.account(chain, [0])).toEqual({ read: 0, write: 10 });
    expect(cache.account(chain, [2])).toEqual({ read: 10, write: 50 });
    expect(cache.account(chain, [])).toEqual({ read: 60, write: 0 });
    expect(cache.account(trie.chain(["a", "x", "c"], [10, 20, 30]), [])).toEqual({ read: 10, write: 0 });
  });
});
