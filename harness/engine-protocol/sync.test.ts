import { describe, expect, it } from "vitest";
import { syncInPlace } from "./sync.ts";

describe("syncInPlace", () => {
  it("makes arrays and objects equal to the source while keeping their identity and that of nested objects", () => {
    const kept = { role: "user", content: "a", extra: 1 };
    const target: unknown[] = [kept, { role: "assistant", content: "b" }, { role: "tool" }];
    const source = [{ role: "user", content: "A" }, { role: "assistant", content: "b", tool_calls: [] }];
    expect(syncInPlace(target, source)).toBe(true);
    expect(target).toEqual(source);
    expect(target[0]).toBe(kept);
    expect("extra" in kept).toBe(false);
  });

  it("grows arrays and replaces values whose type changed", () => {
    const target: unknown[] = [1, { a: 1 }];
    syncInPlace(target, [[1], "x", { b: 2 }]);
    expect(target).toEqual([[1], "x", { b: 2 }]);
  });

  it("cannot sync across kinds", () => {
    expect(syncInPlace([1], { a: 1 })).toBe(false);
    expect(syncInPlace("a", "b")).toBe(false);
  });
});
