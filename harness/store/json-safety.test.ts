import { describe, expect, it } from "vitest";
import { jsonUnsafeReason } from "./json-safety.ts";

/** The slow, obvious definition the walk must agree with: serialise, parse, compare. */
function survivesRoundTrip(value: unknown): boolean {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return false;
  }
  return text !== undefined && sameJson(value, JSON.parse(text));
}

function sameJson(original: unknown, parsed: unknown): boolean {
  if (original === null || typeof original === "string" || typeof original === "boolean") return original === parsed;
  if (typeof original === "number") return Number.isFinite(original) && original === parsed;
  if (Array.isArray(original)) {
    // An index loop, not every(): every() skips holes, which JSON turns into null.
    if (!Array.isArray(parsed) || original.length !== parsed.length) return false;
    for (let i = 0; i < original.length; i++) if (!sameJson(original[i], parsed[i])) return false;
    return true;
  }
  if (typeof original === "object" && Object.getPrototypeOf(original) === Object.prototype) {
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return false;
    const kept = Object.entries(original as Record<string, unknown>).filter(([, v]) => v !== undefined);
    const record = parsed as Record<string, unknown>;
    return kept.length === Object.keys(record).length && kept.every(([k, v]) => sameJson(v, record[k]));
  }
  return false;
}

const cycle: Record<string, unknown> = { a: 1 };
cycle.self = cycle;
const cyclicList: unknown[] = [1];
cyclicList.push([cyclicList]);
const shared = { text: "same object twice is not a cycle" };
const sparse: unknown[] = [1];
sparse[2] = 3;
class Part {
  text = "x";
}

const cases: Array<[string, unknown]> = [
  ["a string", "hello"],
  ["a lone surrogate", "\ud800"],
  ["numbers", [0, -0, 1.5, -3e300]],
  ["NaN", [Number.NaN]],
  ["Infinity", { n: Number.POSITIVE_INFINITY }],
  ["a BigInt", [{ type: "text", text: 1n }]],
  ["a function value", { f: () => 1 }],
  ["a symbol value", { s: Symbol("x") }],
  ["a symbol key", { [Symbol("k")]: 1, ok: true }],
  ["undefined in an object", { a: undefined, b: 1 }],
  ["undefined in a list", [1, undefined]],
  ["a hole in a list", sparse],
  ["a cycle through an object", cycle],
  ["a cycle through lists", cyclicList],
  ["one object referenced twice", [shared, shared]],
  ["a Date", { at: new Date(0) }],
  ["a class instance", [new Part()]],
  ["a null-prototype object", Object.assign(Object.create(null) as object, { a: 1 })],
  ["a Map", new Map([["a", 1]])],
  ["a toJSON method", { toJSON: () => "x" }],
  ["nested plain data", [{ type: "image_url", image_url: { url: "data:x", detail: null } }, { type: "text", text: "ok", extra: [true, false, null] }]],
  ["an empty object and list", [{}, []]],
];

describe("jsonUnsafeReason", () => {
  it.each(cases)("agrees with a JSON round trip on %s", (_name, value) => {
    const reason = jsonUnsafeReason(value);
    expect(reason === null).toBe(survivesRoundTrip(value));
  });

  it("says why a value is refused", () => {
    expect(jsonUnsafeReason([1n])).toMatch(/BigInt/);
    expect(jsonUnsafeReason(cycle)).toMatch(/circular/);
    expect(jsonUnsafeReason({ at: new Date(0) })).toMatch(/Date object/);
    expect(jsonUnsafeReason([Number.NaN])).toMatch(/non-finite number NaN/);
  });

  it("answers for a value nested deeper than the stack, as JSON.stringify would fail on it", () => {
    let deep: unknown[] = [];
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(survivesRoundTrip(deep)).toBe(false);
    expect(jsonUnsafeReason(deep)).toMatch(/nested too deeply/);
  });
});
