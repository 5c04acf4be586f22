import { describe, expect, it } from "vitest";
import { sameJson } from "./json-equal.ts";

describe("sameJson: written as the same JSON text", () => {
  it("says yes for equal JSON data, key order included", () => {
    expect(sameJson({ a: [1, "x", null, { b: true }] }, { a: [1, "x", null, { b: true }] })).toBe(true);
    expect(sameJson({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
  });

  it("says no wherever JSON.stringify would write something else than the value holds", () => {
    expect(sameJson({ a: undefined }, { a: undefined })).toBe(false);
    expect(sameJson(Number.NaN, Number.NaN)).toBe(false);
    expect(sameJson({ toJSON: () => 1 }, {})).toBe(false);
    expect(sameJson({}, { toJSON: () => 1 })).toBe(false);
    expect(sameJson([1], { 0: 1 })).toBe(false);
  });
});
