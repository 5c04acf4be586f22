import { describe, expect, it } from "vitest";
import type { Message } from "../contract/types.ts";
import { requestCopies } from "./request-copies.ts";

type Call = { id: string; function: { arguments: string } };
const stored = (): Message[] => [
  { role: "user", content: [{ type: "text", text: "look" }], timestamp: 1, message_uid: "u1" },
  {
    role: "assistant",
    content: null,
    tool_calls: [{ id: "c1", type: "function", function: { name: "read_file", arguments: '{"q": "x"}' } }],
    timestamp: 2,
    message_uid: "u2",
    _tool_call_uids: { c1: "t1" },
  },
  { role: "user", content: "not written yet" },
];

describe("SEL-4: select_context's request copies", () => {
  it("are wire copies: persistence-only fields gone, every value equal to the history's", () => {
    const history = stored();
    const copies = requestCopies(history);
    expect(copies).toEqual([
      { role: "user", content: [{ type: "text", text: "look" }] },
      { role: "assistant", content: null, tool_calls: history[1]!.tool_calls },
      { role: "user", content: "not written yet" },
    ]);
  });

  it("share no object with the history or with an earlier request, at any depth", () => {
    const history = stored();
    const first = requestCopies(history);
    const second = requestCopies(history);
    for (const [index, source] of history.entries()) {
      for (const copies of [first, second]) {
        expect(copies[index]).not.toBe(source);
        for (const key of ["content", "tool_calls"] as const) {
          const value = copies[index]![key];
          if (value !== null && typeof value === "object") expect(value).not.toBe(source[key]);
        }
      }
      expect(second[index]).not.toBe(first[index]);
    }
  });

  it("are made afresh after an engine edited a nested value of an earlier request", () => {
    const history = stored();
    const before = JSON.stringify(history);
    const first = requestCopies(history);
    (first[1]!.tool_calls as Call[])[0]!.function.arguments = '{"q": "edited"}';
    (first[1]!.tool_calls as Call[]).push({ id: "c2", function: { arguments: "{}" } });
    (first[0]!.content as Array<{ text: string }>)[0]!.text = "edited";
    (first[2]!.content as unknown) = "edited";
    const later = requestCopies(history);
    expect((later[1]!.tool_calls as Call[]).map((call) => call.function.arguments)).toEqual(['{"q": "x"}']);
    expect(later[0]!.content).toEqual([{ type: "text", text: "look" }]);
    expect(later[2]!.content).toBe("not written yet");
    expect(JSON.stringify(history)).toBe(before);
  });
});
