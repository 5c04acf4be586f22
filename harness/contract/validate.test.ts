import { describe, expect, it } from "vitest";
import { firstUnsendable, isValidSequence, validateSequence, type SequenceFindingKind } from "./validate.ts";

const call = (id: string, args = "{}") => ({ id, type: "function", function: { name: "read_file", arguments: args } });
const assistant = (...ids: string[]) => ({ role: "assistant", content: null, tool_calls: ids.map((id) => call(id)) });
const result = (id: string) => ({ role: "tool", tool_call_id: id, content: "ok" });
const kinds = (messages: unknown[]) => validateSequence(messages).map((f) => [f.kind, f.index] as [SequenceFindingKind, number]);

describe("validateSequence (CMP-2)", () => {
  it("accepts a well-formed conversation with a parallel batch", () => {
    const messages = [
      { role: "system", content: "be brief" },
      { role: "user", content: "hi" },
      assistant("a", "b"),
      result("a"),
      result("b"),
      { role: "assistant", content: "done" },
    ];
    expect(validateSequence(messages)).toEqual([]);
    expect(isValidSequence(messages)).toBe(true);
  });

  it("accepts content parts and an empty list", () => {
    expect(validateSequence([{ role: "user", content: [{ type: "text", text: "x" }] }])).toEqual([]);
    expect(validateSequence([])).toEqual([]);
  });

  it("finds an orphaned result", () => {
    expect(kinds([{ role: "user", content: "hi" }, result("x")])).toEqual([["orphaned-result", 1]]);
  });

  it("finds an unanswered call at the assistant's index", () => {
    const findings = validateSequence([{ role: "user", content: "hi" }, assistant("a", "b"), result("a")]);
    expect(findings.map((f) => [f.kind, f.index])).toEqual([["unanswered-call", 1]]);
    expect(findings[0]!.detail).toContain('"b"');
  });

  it("finds a split parallel batch when another message interleaves", () => {
    const messages = [assistant("a", "b"), result("a"), { role: "assistant", content: "thinking" }, result("b")];
    expect(kinds(messages)).toEqual([["split-batch", 3]]);
    expect(isValidSequence(messages)).toBe(false);
  });

  it("finds a result that sits after a later assistant's batch as split", () => {
    expect(kinds([assistant("a"), assistant("b"), result("b"), result("a")])).toEqual([["split-batch", 3]]);
  });

  it("never pairs a result across a user turn", () => {
    expect(kinds([assistant("a"), { role: "user", content: "next" }, result("a")])).toEqual([
      ["unanswered-call", 0],
      ["orphaned-result", 2],
    ]);
  });

  it("pairs an id reused by a later assistant with the nearest unanswered call (TCU-3)", () => {
    const messages = [
      { role: "user", content: "go" },
      assistant("call_1"),
      result("call_1"),
      assistant("call_1"),
      result("call_1"),
    ];
    expect(validateSequence(messages)).toEqual([]);
  });

  it("treats a third result of a twice-used id as orphaned", () => {
    expect(kinds([assistant("c"), result("c"), assistant("c"), result("c"), result("c")])).toEqual([["orphaned-result", 4]]);
  });

  it("allows an id repeated inside one response, warning but valid (TCU-3)", () => {
    const messages = [assistant("dup", "dup"), result("dup"), result("dup")];
    const findings = validateSequence(messages);
    expect(findings.map((f) => [f.kind, f.severity, f.index])).toEqual([["duplicate-call-id", "warning", 0]]);
    expect(isValidSequence(messages)).toBe(true);
  });

  it("reports the unanswered occurrence of a repeated id", () => {
    expect(kinds([assistant("dup", "dup"), result("dup")])).toEqual([
      ["duplicate-call-id", 0],
      ["unanswered-call", 0],
    ]);
  });

  it("finds invalid arguments JSON, and arguments that are not a string as a malformed call", () => {
    const messages = [
      { role: "assistant", tool_calls: [call("a", "{not json"), { id: "b", type: "function", function: { name: "f", arguments: { x: 1 } } }] },
      result("a"),
      result("b"),
    ];
    const findings = validateSequence(messages);
    expect(findings.map((f) => [f.kind, f.field])).toEqual([
      ["invalid-arguments-json", "tool_calls[0].function.arguments"],
      ["malformed-tool-call", "tool_calls[1].function.arguments"],
    ]);
    expect(findings[1]!.detail).toBe("element 0 (role assistant): tool_calls[1].function.arguments is an object; expected a JSON string");
  });

  it("finds unknown, missing and non-object messages", () => {
    expect(kinds([null, "text", [], { content: "x" }, { role: "function", content: "x" }, { role: 7 }])).toEqual([
      ["non-object-message", 0],
      ["non-object-message", 1],
      ["non-object-message", 2],
      ["missing-role", 3],
      ["unknown-role", 4],
      ["missing-role", 5],
    ]);
  });

  it("finds a tool result without tool_call_id", () => {
    expect(kinds([assistant("a"), result("a"), { role: "tool", content: "?" }])).toEqual([["missing-tool-call-id", 2]]);
  });

  it("finds malformed tool calls", () => {
    expect(
      kinds([
        { role: "assistant", content: "x", tool_calls: "a" },
        { role: "assistant", tool_calls: [null, { type: "function", function: { name: "f", arguments: "{}" } }] },
        { role: "assistant", tool_calls: [{ id: "z", type: "function" }] },
        result("z"),
      ]),
    ).toEqual([
      ["malformed-tool-calls", 0],
      ["malformed-tool-call", 1],
      ["malformed-tool-call", 1],
      ["malformed-tool-call", 2],
    ]);
  });

  it("finds content that is neither text, null nor typed parts", () => {
    expect(kinds([{ role: "user", content: 42 }, { role: "user", content: [{ text: "no type" }] }])).toEqual([
      ["invalid-content", 0],
      ["invalid-content", 1],
    ]);
  });

  it("names the element, the field and what was expected for object content and parts without a type", () => {
    const findings = validateSequence([{ role: "system", content: "s" }, { role: "user", content: { text: "summary" } }, { role: "assistant", content: [{ text: "a" }] }]);
    expect(findings.map((f) => [f.index, f.field, f.expected])).toEqual([
      [1, "content", "a string or a list of typed parts"],
      [2, "content[0].type", 'a part type such as "text"'],
    ]);
    expect(findings[0]!.detail).toBe("element 1 (role user): content is an object; expected a string or a list of typed parts");
    expect(findings[1]!.detail).toContain("element 2 (role assistant): content[0] has type missing");
  });

  it("checks the fields each known part type needs, and only warns about unknown part types", () => {
    const findings = validateSequence([
      { role: "user", content: [{ type: "text" }, { type: "image_url", image_url: "http://x" }, { type: "image_url", image_url: { url: "data:," } }, { type: "thinking", thinking: "…" }] },
    ]);
    expect(findings.map((f) => [f.field, f.severity])).toEqual([
      ["content[0]", "error"],
      ["content[1]", "error"],
      ["content[3].type", "warning"],
    ]);
    expect(findings[0]!.detail).toBe('element 0 (role user): content[0] (type "text") has "text" missing; expected a string');
  });

  it("allows null content only on an assistant message with tool calls", () => {
    expect(kinds([{ role: "user", content: null }, { role: "assistant", content: null }, assistant("a"), result("a"), { role: "tool", tool_call_id: "a" }])).toEqual([
      ["invalid-content", 0],
      ["invalid-content", 1],
      ["invalid-content", 4],
      ["orphaned-result", 4],
    ]);
  });

  it("finds an empty tool_calls list, a call whose type is not function, and a name that is not a string", () => {
    const findings = validateSequence([
      { role: "assistant", content: "x", tool_calls: [] },
      { role: "assistant", content: null, tool_calls: [{ id: "a", type: "tool", function: { name: "f", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "a", content: "ok", name: 3 },
    ]);
    expect(findings.map((f) => [f.kind, f.index, f.field])).toEqual([
      ["malformed-tool-calls", 0, "tool_calls"],
      ["malformed-tool-call", 1, "tool_calls[0].type"],
      ["invalid-name", 2, "name"],
    ]);
    expect(findings[0]!.detail).toBe("element 0 (role assistant): tool_calls is an empty list; expected a non-empty list of calls, or no tool_calls field");
  });

  it("firstUnsendable names what a provider would refuse, not what the sanitizers repair", () => {
    expect(firstUnsendable([{ role: "user", content: "hi" }, result("x")])).toBeNull();
    expect(firstUnsendable([{ role: "user", content: "hi" }, { role: "assistant", content: "x", tool_calls: [] }])?.kind).toBe("malformed-tool-calls");
  });
});
