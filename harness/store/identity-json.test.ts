import { describe, expect, it } from "vitest";
import { encodeToolCallUidColumn, encodeToolCallUids, toolCallUidMap } from "./identity-json.ts";

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
