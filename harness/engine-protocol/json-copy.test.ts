import { describe, expect, it } from "vitest";
import { plainJsonCopy } from "./json-copy.ts";

const viaText = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe("plainJsonCopy: JSON.parse(JSON.stringify(value)) without the text", () => {
  it("equals the parsed text, key order included, with new lists and objects", () => {
    const value = { role: "assistant", content: null, n: 2.5, ok: true, "1": "integer-like key first", tool_calls: [{ id: "c1", function: { name: "t", arguments: "{}" } }] };
    const copy = plainJsonCopy(value) as typeof value;
    expect(JSON.stringify(copy)).toBe(JSON.stringify(viaText(value)));
    expect(Object.keys(copy)).toEqual(Object.keys(viaText(value) as object));
    expect(copy.tool_calls).not.toBe(value.tool_calls);
    expect(copy.tool_calls[0]!.function).not.toBe(value.tool_calls[0]!.function);
    value.tool_calls[0]!.function.arguments = '{"changed":1}';
    expect(copy.tool_calls[0]!.function.arguments).toBe("{}");
  });

  it("writes -0 as JSON does", () => {
    expect(Object.is(plainJsonCopy(-0), 0)).toBe(true);
  });

  it("declines wherever the text would differ from the value", () => {
    for (const value of [
      { a: undefined },
      [undefined],
      [1, , 3],
      { n: Number.NaN },
      { n: Number.POSITIVE_INFINITY },
      { when: new Date(0) },
      { toJSON: () => 1 },
      { map: new Map() },
      { f: () => 1 },
      JSON.parse('{"__proto__": {"x": 1}}'),
      { big: 1n },
      Symbol("s"),
    ]) {
      expect(plainJsonCopy(value)).toBeUndefined();
    }
  });

  it("copies an object without a prototype as JSON writes it", () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1 });
    expect(plainJsonCopy(bare)).toEqual({ a: 1 });
  });
});
