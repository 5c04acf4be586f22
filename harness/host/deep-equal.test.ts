import { describe, expect, it } from "vitest";
import { deepEqual } from "./deep-equal.ts";

describe("deepEqual (the host's no-progress check)", () => {
  it("ignores key order and undefined members, as JSON does", () => {
    expect(deepEqual({ role: "user", content: "a" }, { content: "a", role: "user" })).toBe(true);
    expect(deepEqual({ role: "user", name: undefined }, { role: "user" })).toBe(true);
    expect(deepEqual([{ a: [1, { b: null }] }], [{ a: [1, { b: null }] }])).toBe(true);
  });

  it("sees any change of length, value, type or key", () => {
    expect(deepEqual([1, 2], [1, 2, 3])).toBe(false);
    expect(deepEqual({ a: 1 }, { a: "1" })).toBe(false);
    expect(deepEqual({ a: 1 }, { b: 1 })).toBe(false);
    expect(deepEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(deepEqual([], {})).toBe(false);
    expect(deepEqual(null, {})).toBe(false);
    expect(deepEqual({ content: [{ type: "text", text: "x" }] }, { content: [{ type: "text", text: "y" }] })).toBe(false);
  });
});
