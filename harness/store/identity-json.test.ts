import { describe, expect, it } from "vitest";
import { decodeToolCallUids, encodeToolCallUidColumn, encodeToolCallUids, readToolCallUidMap, toolCallUidMap } from "./identity-json.ts";

const A = "a".repeat(32);
const B = "b".repeat(32);

describe("encodeToolCallUidColumn", () => {
  const raws: Array<[string, unknown]> = [
    ["nothing", undefined],
    ["null", null],
    ["a list", [A]],
    ["an empty map", {}],
    ["one call", { call_1: A }],
    ["keys out of order", { zeta: A, alpha: B }],
    ["a repeated id with slots", { call_1: [A, null, B] }],
    ["only null slots", { call_1: [null, null] }],
    ["blank and non-string values", { call_1: "", call_2: 7, call_3: { x: 1 }, call_4: B }],
    ["a key that needs escaping", { 'call "q"\n': A }],
  ];

  it.each(raws)("writes what cleaning then encoding writes, for %s", (_name, raw) => {
    expect(encodeToolCallUidColumn(raw)).toBe(encodeToolCallUids(toolCallUidMap(raw) ?? undefined));
  });

  it("uses Python's default separators and sorted keys", () => {
    expect(encodeToolCallUidColumn({ zeta: A, alpha: [B, null] })).toBe(`{"alpha": ["${B}", null], "zeta": "${A}"}`);
  });
});

describe("readToolCallUidMap", () => {
  const raws: Array<[string, unknown]> = [
    ["nothing", undefined],
    ["a list", [A]],
    ["an empty map", {}],
    ["one call", { call_1: A }],
    ["keys out of order", { zeta: A, alpha: B }],
    ["a repeated id with slots", { call_1: [A, null, B] }],
    ["only null slots", { call_1: [null, null] }],
    ["a blank slot", { call_1: [A, ""] }],
    ["a sparse slot list", { call_1: [A, , B] }],
    ["blank and non-string values", { call_1: "", call_2: 7, call_3: { x: 1 }, call_4: B }],
    ["a prototype-less map", Object.assign(Object.create(null) as object, { call_1: A })],
    ["an own __proto__ key", JSON.parse(`{"__proto__": "${A}", "call_1": "${B}"}`)],
    ["a class instance", new (class Uids { call_1 = A })()],
  ];

  it.each(raws)("reads %s as the cleaned copy would, keys in the same order", (_name, raw) => {
    const read = readToolCallUidMap(raw);
    const copy = toolCallUidMap(raw);
    expect(read).toEqual(copy);
    expect(read === null ? null : Object.keys(read)).toEqual(copy === null ? null : Object.keys(copy));
  });

  it("hands back a clean map itself and copies one that needs cleaning", () => {
    const clean = { call_1: A, call_2: [A, null] };
    expect(readToolCallUidMap(clean)).toBe(clean);
    const blank = { call_1: "", call_2: B };
    expect(readToolCallUidMap(blank)).not.toBe(blank);
  });

  it("decodes a stored column exactly as parsing then cleaning does", () => {
    for (const column of [`{"a": "${A}", "b": ["${B}", null]}`, `{"a": "", "b": "${B}"}`, `{"a": [null]}`, "[1]", "not json"]) {
      let parsed: unknown;
      try {
        parsed = toolCallUidMap(JSON.parse(column));
      } catch {
        parsed = null;
      }
      const expected = parsed !== null && Object.keys(parsed as object).length > 0 ? parsed : null;
      expect(decodeToolCallUids(column)).toStrictEqual(expected);
    }
  });
});
