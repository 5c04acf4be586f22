import { describe, expect, it } from "vitest";
import type { Message } from "./types.ts";
import { estimateTokensRough } from "./tokens.ts";
import { countTokensExact, estimateTokensExact, rememberTokenCounts } from "./tokens-exact.ts";

const plain: Message[] = [
  { role: "system", content: "You are a careful assistant." },
  { role: "user", content: "Summarise the design document in three bullet points." },
  { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "read", arguments: '{"path":"a.md"}' } }] },
  { role: "tool", tool_call_id: "call_1", content: "The design has three layers." },
];
const withPersistence: Message[] = plain.map((message, i) => ({
  ...message,
  message_uid: `${i}`.padStart(32, "0"),
  timestamp: 1_700_000_000 + i,
  _row_id: i,
  display_kind: "chat",
  display_metadata: { folded: true },
  _absorbed_message_uids: ["f".repeat(32)],
  _tool_call_uids: { call_1: "e".repeat(32) },
  _tool_call_uid: "d".repeat(32),
}));

describe("estimateTokensRough", () => {
  it("ignores persistence-only fields (WIRE-2)", () => {
    expect(estimateTokensRough(withPersistence)).toBe(estimateTokensRough(plain));
  });
  it("grows with content at about four characters a token", () => {
    const short = estimateTokensRough([{ role: "user", content: "x" }]);
    const long = estimateTokensRough([{ role: "user", content: "x".repeat(401) }]);
    expect(long - short).toBe(100);
  });
  it("is zero for an empty list", () => {
    expect(estimateTokensRough([])).toBe(0);
  });
});

describe("exact estimator (o200k_base)", () => {
  it("counts known texts exactly", () => {
    expect(countTokensExact("")).toBe(0);
    expect(countTokensExact("hello world")).toBe(2);
    expect(countTokensExact("hello")).toBe(1);
  });
  it("keeps counting correctly past the size of its cache of recent texts", () => {
    for (let i = 0; i < 9000; i++) countTokensExact(`distinct text ${i}`);
    expect(countTokensExact("hello world")).toBe(2);
    expect(countTokensExact("hello world")).toBe(2);
  });
  it("answers with counts remembered from elsewhere, and remembers none from lists that do not pair up", () => {
    // Texts no other test counts: a remembered count (deliberately not the true one here) is what the estimator answers.
    const texts = ["remembered text one, counted in another process", "remembered text two, counted in another process"];
    expect(rememberTokenCounts(texts, [1000, 2000])).toBe(true);
    expect(texts.map(countTokensExact)).toEqual([1000, 2000]);
    const unpaired = ["unpaired text counted here", "another unpaired text counted here"];
    for (const counts of [[7], [7, -1], [7, 1.5], [7, "8"], [7, Number.NaN]]) expect(rememberTokenCounts(unpaired, counts)).toBe(false);
    expect(unpaired.map(countTokensExact)).toEqual([5, 6]);
  });
  it("treats special-token markers as plain text instead of throwing", () => {
    expect(countTokensExact("<|endoftext|>")).toBeGreaterThan(1);
  });
  it("counts a message list with per-message framing and reply priming", () => {
    const one: Message[] = [{ role: "user", content: "hello world" }];
    // 3 priming + 3 framing + "user" (1) + "hello world" (2)
    expect(estimateTokensExact(one)).toBe(9);
    expect(estimateTokensExact([])).toBe(0);
    expect(estimateTokensExact([{ role: "user", content: "hello world", name: "bob" }])).toBe(11);
  });
  it("ignores persistence-only fields (WIRE-2)", () => {
    expect(estimateTokensExact(withPersistence)).toBe(estimateTokensExact(plain));
  });
  it("counts tool calls", () => {
    expect(estimateTokensExact(plain.slice(0, 3))).toBeGreaterThan(estimateTokensExact(plain.slice(0, 2)) + 5);
  });
});
