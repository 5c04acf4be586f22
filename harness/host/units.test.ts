import { describe, expect, it } from "vitest";
import type { Message } from "../contract/types.ts";
import { cloneMessages, cloneValue } from "./clone.ts";
import {
  MEMORY_CONTEXT_HEAD_CHARS,
  MEMORY_CONTEXT_TAIL_CHARS,
  MEMORY_CONTEXT_TRUNCATION_MARKER,
  REDACTED,
  sanitizeMemoryContext,
} from "./memory-context.ts";
import { PassPool } from "./pool.ts";
import { mergeConsecutiveUsers, repairToolPairs, sanitizeRequest } from "./sanitize.ts";

describe("sanitizers", () => {
  it("return the very same array when nothing needs repair", () => {
    const clean: Message[] = [
      { role: "system", content: "s" },
      { role: "user", content: "u" },
      { role: "assistant", content: null, tool_calls: [{ id: "a", type: "function", function: { name: "t", arguments: "{}" } }, { id: "a", type: "function", function: { name: "t", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "a", content: "1" },
      { role: "tool", tool_call_id: "a", content: "2" },
      { role: "assistant", content: "done" },
    ];
    expect(sanitizeRequest(clean)).toBe(clean);
  });

  it("drop a surplus result for an already answered id and never edit a message in place", () => {
    const assistant: Message = { role: "assistant", content: null, tool_calls: [{ id: "a", type: "function", function: { name: "t", arguments: "{}" } }] };
    const first: Message = { role: "user", content: [{ type: "text", text: "look" }] };
    const list: Message[] = [first, { role: "user", content: "again" }, assistant, { role: "tool", tool_call_id: "a", content: "1" }, { role: "tool", tool_call_id: "a", content: "dup" }];
    const repaired = mergeConsecutiveUsers(repairToolPairs(list));
    expect(repaired.map((message) => message.content)).toEqual([[{ type: "text", text: "look" }, { type: "text", text: "again" }], null, "1"]);
    expect(first.content).toEqual([{ type: "text", text: "look" }]);
  });
});

describe("message cloning", () => {
  it("deep-copies JSON data and keeps foreign objects usable", () => {
    const date = new Date(0);
    const original = [{ role: "user", content: [{ type: "text", text: "x" }], meta: { when: date, list: [1, [2]] } }] as Message[];
    const copy = cloneMessages(original);
    expect(copy).toEqual(original);
    (copy[0]!.content as Array<{ text: string }>)[0]!.text = "changed";
    ((copy[0]!["meta"] as { list: unknown[] }).list[1] as number[]).push(3);
    expect(original[0]!.content).toEqual([{ type: "text", text: "x" }]);
    expect((original[0]!["meta"] as { list: unknown[] }).list).toEqual([1, [2]]);
    expect(cloneValue(date)).not.toBe(date);
  });

  it("copies a tool-call uid map as an ordinary object with its keys in order, an own __proto__ key included", () => {
    const uids = JSON.parse('{"call_b": "u1", "__proto__": ["u2", null], "call_a": "u3"}') as Record<string, unknown>;
    const original = [{ role: "assistant", content: null, tool_calls: [{ id: "call_b", type: "function", function: { name: "t", arguments: "{}" } }], _tool_call_uids: uids }] as Message[];
    const [copy] = cloneMessages(original);
    const copied = copy!._tool_call_uids as Record<string, unknown>;
    expect(copied).not.toBe(uids);
    expect(Object.getPrototypeOf(copied)).toBe(Object.prototype);
    expect(Object.keys(copied)).toEqual(["call_b", "__proto__", "call_a"]);
    expect(Object.getOwnPropertyDescriptor(copied, "__proto__")?.value).toEqual(["u2", null]);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(original[0]));
    (Object.getOwnPropertyDescriptor(copied, "__proto__")!.value as unknown[]).push("u4");
    copied["call_b"] = "changed";
    expect(uids["call_b"]).toBe("u1");
    expect(Object.getOwnPropertyDescriptor(uids, "__proto__")?.value).toEqual(["u2", null]);
  });

  it("keeps an own __proto__ key of any nested plain object as a key, not a prototype", () => {
    const meta = JSON.parse('{"__proto__": {"polluted": true}, "x": 1}') as Record<string, unknown>;
    const copy = cloneValue({ meta }) as { meta: Record<string, unknown> };
    expect(Object.getPrototypeOf(copy.meta)).toBe(Object.prototype);
    expect(Object.keys(copy.meta)).toEqual(["__proto__", "x"]);
    expect(copy.meta["polluted"]).toBeUndefined();
    expect(JSON.stringify(copy)).toBe(JSON.stringify({ meta }));
  });
});

describe("memory context", () => {
  it("redacts secrets and URL credentials, then caps at head 4,000 + marker + tail 1,500", () => {
    expect(sanitizeMemoryContext("key KX-1 and https://bob:pw@host/x", ["KX-1"])).toBe(`key ${REDACTED} and https://${REDACTED}@host/x`);
    const long = `${"h".repeat(5000)}${"t".repeat(2000)}`;
    const capped = sanitizeMemoryContext(long);
    expect(capped).toBe("h".repeat(MEMORY_CONTEXT_HEAD_CHARS) + MEMORY_CONTEXT_TRUNCATION_MARKER + "t".repeat(MEMORY_CONTEXT_TAIL_CHARS));
    expect(sanitizeMemoryContext("x".repeat(6000))).toHaveLength(6000);
  });
});

describe("PassPool", () => {
  it("never runs more than its size at once and serves waiters in order", async () => {
    const pool = new PassPool(2);
    const order: number[] = [];
    let running = 0;
    let peak = 0;
    await Promise.all(
      [0, 1, 2, 3, 4].map((index) =>
        pool.run(async () => {
          running++;
          peak = Math.max(peak, running);
          await new Promise((resolve) => setTimeout(resolve, 2));
          order.push(index);
          running--;
        }),
      ),
    );
    expect(peak).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4]);
    expect(pool.active).toBe(0);
    expect(() => new PassPool(0)).toThrow(RangeError);
  });
});
