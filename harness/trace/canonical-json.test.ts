import { describe, expect, it } from "vitest";
import { seededRandom } from "../util/random.ts";
import { canonicalJson, digestValue, type JsonMemo } from "./canonical-json.ts";

/**
 * The rules of canonical JSON written out the slow, obvious way: canonicalJson writes plain trees
 * through JSON.stringify of a key-sorted copy and everything else by hand, and must give this
 * text for any value.
 */
function reference(value: unknown, ancestors: object[] = []): string | undefined {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      return Number.isFinite(value) ? JSON.stringify(value) : "null";
    case "boolean":
      return String(value);
    case "bigint":
      return JSON.stringify(value.toString());
    case "undefined":
    case "function":
    case "symbol":
      return undefined;
  }
  if (value === null) return "null";
  if (ancestors.includes(value as object)) return '"[Circular]"';
  const inner = [...ancestors, value as object];
  if (Array.isArray(value)) return `[${Array.from(value as unknown[], (item) => reference(item, inner) ?? "null").join(",")}]`;
  const record = value as Record<string, unknown>;
  const members = Object.keys(record)
    .sort()
    .flatMap((key) => {
      const text = reference(record[key], inner);
      return text === undefined ? [] : [`${JSON.stringify(key)}:${text}`];
    });
  return `{${members.join(",")}}`;
}

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
  toJSON(): string {
    return "a toJSON that canonical JSON must not call";
  }
}

/** A seeded mix of everything a trace or an engine's answer can hold. */
function randomValue(random: () => number, depth: number): unknown {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const leaves: Array<() => unknown> = [
    () => pick(["", "plain", "with \"quotes\" and \\", "line\nbreak", "\ud800 lone surrogate", "emoji 🙂", "tab\t", "\u0000"]),
    () => pick([0, -0, 1, -17, 3.5, 1e21, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]),
    () => pick([true, false, null, undefined]),
    () => pick([10n, () => 1, Symbol("s")]),
    () => pick([new Date(0), new Point(1, 2), new String("boxed"), new Map([["k", 1]])]),
  ];
  if (depth <= 0 || random() < 0.35) return pick(leaves)();
  if (random() < 0.4) {
    const list: unknown[] = Array.from({ length: Math.floor(random() * 5) }, () => randomValue(random, depth - 1));
    if (random() < 0.1) list.length += 2; // holes
    if (random() < 0.15) list.fill(Math.floor(random() * 1000)); // a list of references
    // A list's own toJSON, which JSON.stringify would call and canonical JSON must not.
    if (random() < 0.1) Object.defineProperty(list, "toJSON", { value: () => "forged", enumerable: random() < 0.5, configurable: true });
    return list;
  }
  const keys = ["role", "content", "tool_calls", "b", "a", "__proto__", "", "10", "9", "2x", "Zed", "ä", "message_uid"];
  const record: Record<string, unknown> = random() < 0.15 ? (Object.create(null) as Record<string, unknown>) : {};
  for (let count = Math.floor(random() * 6); count > 0; count--) {
    Object.defineProperty(record, pick(keys), { value: randomValue(random, depth - 1), enumerable: random() > 0.05, configurable: true, writable: true });
  }
  return record;
}

describe("canonicalJson", () => {
  it("writes every value exactly as the rules say (2,000 seeded values of every kind)", () => {
    const random = seededRandom(7);
    for (let index = 0; index < 2000; index++) {
      const value = randomValue(random, 5);
      expect(canonicalJson(value), `value ${index}`).toBe(reference(value) ?? "null");
    }
  });

  it("names a cycle as [Circular], however many ways lead back, and writes a shared value each time it appears", () => {
    const loop: Record<string, unknown> = { a: 1 };
    loop["self"] = loop;
    loop["again"] = loop;
    loop["list"] = [loop, { back: loop }];
    expect(canonicalJson(loop)).toBe(reference(loop));
    expect(canonicalJson(loop)).toBe('{"a":1,"again":"[Circular]","list":["[Circular]",{"back":"[Circular]"}],"self":"[Circular]"}');
    const shared = { x: [1, 2] };
    expect(canonicalJson({ left: shared, right: shared })).toBe('{"left":{"x":[1,2]},"right":{"x":[1,2]}}');
  });

  it("orders integer-like keys as strings, and keeps a __proto__ key a key", () => {
    expect(canonicalJson({ 9: "a", 10: "b", x: 1 })).toBe('{"10":"b","9":"a","x":1}');
    expect(canonicalJson(JSON.parse('{"__proto__":{"polluted":true},"a":1}'))).toBe('{"__proto__":{"polluted":true},"a":1}');
  });

  it("writes a tree deeper than the fast path goes", () => {
    let deep: unknown = "bottom";
    for (let level = 0; level < 100; level++) deep = level % 2 === 0 ? { level, next: deep } : [deep];
    expect(canonicalJson(deep)).toBe(reference(deep));
  });

  it("a stable object's text is remembered and reused by digests", () => {
    const message = { role: "user", content: "hello" };
    const memo: JsonMemo = { cache: new WeakMap(), isStable: (value) => value === message };
    expect(canonicalJson([message], memo)).toBe('[{"content":"hello","role":"user"}]');
    expect(memo.cache.get(message)).toBe('{"content":"hello","role":"user"}');
    expect(digestValue([message], memo)).toEqual(digestValue([{ role: "user", content: "hello" }]));
  });
});
