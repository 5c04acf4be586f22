import { describe, expect, it } from "vitest";
import { estimateTokensRough } from "../contract/tokens.ts";
import type { Message } from "../contract/types.ts";
import { historyTokensRough } from "./history-tokens.ts";

const persisted = (content: string, index: number): Message => ({ role: "user", content, message_uid: index.toString(16).padStart(32, "0"), timestamp: 1_700_000_000 + index });

describe("the host's estimate of a history", () => {
  it("equals the contract's rough estimate, for persisted messages, unpersisted ones and tool calls", () => {
    const history: Message[] = [
      persisted("hello there", 1),
      { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "read_file", arguments: '{"path":"a.ts"}' } }] },
      persisted("x".repeat(999), 3),
    ];
    expect(historyTokensRough(history)).toBe(estimateTokensRough(history));
    expect(historyTokensRough(history)).toBe(estimateTokensRough(history));
  });

  it("estimates a message not yet persisted afresh, so a later edit of it counts", () => {
    const pending: Message = { role: "user", content: "short" };
    const before = historyTokensRough([pending]);
    pending.content = "a much longer message than before, edited before its flush";
    expect(historyTokensRough([pending])).toBe(estimateTokensRough([pending]));
    expect(historyTokensRough([pending])).toBeGreaterThan(before);
  });
});
