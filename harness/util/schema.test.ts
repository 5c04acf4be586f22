import { describe, expect, it } from "vitest";
import {
  anyJson,
  array,
  integer,
  jsonSchemaDocument,
  literal,
  named,
  nullable,
  number,
  object,
  oneOf,
  optional,
  record,
  string,
  taggedUnion,
  union,
  type Infer,
} from "./schema.ts";

const item = named(
  "Item",
  taggedUnion("kind", [object({ kind: literal("p"), x: number() }), object({ kind: literal("q") })]),
);
const sample = object({
  n: integer({ minimum: 1, maximum: 100 }),
  list: array(item, { minItems: 1 }),
  tag: optional(string({ pattern: "^[a-z]+$", minLength: 2 })),
  mode: optional(oneOf(["a", "b"])),
  note: optional(nullable(string())),
  content: optional(union([string(), array(string())])),
});

describe("the schema language: validation", () => {
  it("accepts a conforming value", () => {
    expect(sample.check({ n: 1, list: [{ kind: "p", x: 1.5 }, { kind: "q" }], tag: "ab", mode: "b", note: null, content: ["x"] }, "$")).toBeNull();
  });

  it.each([
    [{ list: [{ kind: "q" }] }, "$", 'missing required property "n"'],
    [{ n: 0, list: [{ kind: "q" }] }, "$.n", "must be >= 1, got 0"],
    [{ n: 101, list: [{ kind: "q" }] }, "$.n", "must be <= 100, got 101"],
    [{ n: 1.5, list: [{ kind: "q" }] }, "$.n", "expected an integer, got the number 1.5"],
    [{ n: "2", list: [{ kind: "q" }] }, "$.n", 'expected an integer, got the string "2"'],
    [{ n: 1, list: [] }, "$.list", "at least 1 item"],
    [{ n: 1, list: [{ kind: "q" }], extra: 1 }, "$.extra", 'unknown property "extra"'],
    [{ n: 1, list: [{ kind: "q" }], tag: "A1" }, "$.tag", "must match ^[a-z]+$"],
    [{ n: 1, list: [{ kind: "q" }], tag: "a" }, "$.tag", "at least 2 characters"],
    [{ n: 1, list: [{ kind: "q" }], mode: "c" }, "$.mode", 'expected one of "a", "b", got the string "c"'],
    [{ n: 1, list: [{ kind: "q" }], note: 3 }, "$.note", "expected a string or null, got a number"],
    [{ n: 1, list: [{ kind: "q" }], content: 3 }, "$.content", "expected a string or an array, got a number"],
    [{ n: 1, list: [{ kind: "q" }], content: ["a", 2] }, "$.content[1]", "expected a string, got a number"],
    // The tag picks the variant that explains the problem; an unknown tag is named where it is.
    [{ n: 1, list: [{ kind: "q" }, { kind: "p", x: "1" }] }, "$.list[1].x", "expected a finite number"],
    [{ n: 1, list: [{ kind: "r" }] }, "$.list[0].kind", 'expected one of "p", "q", got the string "r"'],
    [{ n: 1, list: [{}] }, "$.list[0]", 'missing required property "kind"'],
  ])("reports the JSON path of the first problem in %j", (value, path, message) => {
    const problem = sample.check(value, "$");
    expect(problem?.path).toBe(path);
    expect(problem?.message).toContain(message);
  });

  it("quotes member names that are not identifiers", () => {
    expect(record(string()).check({ "a b": 1 }, "$")?.path).toBe('$["a b"]');
  });

  it("looks properties up as own keys, so prototype names are neither known nor present", () => {
    const closed = object({ a: optional(string()) });
    for (const key of ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf"]) {
      expect(closed.check(JSON.parse(`{"${key}": 1}`), "$"), key).toEqual({ path: `$.${key}`, message: `unknown property "${key}"` });
    }
    expect(object({ toString: string() }).check({}, "$")).toEqual({ path: "$", message: 'missing required property "toString"' });
  });

  it("lets an open object keep unknown keys, in canonical order after the declared ones", () => {
    const open = object({ role: string(), content: optional(string()) }, { open: true });
    expect(open.check({ role: "user", x: 1 }, "$")).toBeNull();
    expect(Object.keys(open.canonical({ x: 1, content: "c", role: "user" } as never))).toEqual(["role", "content", "x"]);
  });
});

describe("the schema language: canonical form", () => {
  it("orders keys by declaration, recursively, and sorts free-form JSON", () => {
    const shape = object({ b: array(object({ y: number(), x: number() })), a: anyJson() });
    const canonical = shape.canonical({ a: { z: 1, m: { d: 1, c: 2 } }, b: [{ x: 1, y: 2 }] });
    expect(JSON.stringify(canonical)).toBe('{"b":[{"y":2,"x":1}],"a":{"m":{"c":2,"d":1},"z":1}}');
  });

  it("orders the keys of each variant of a tagged union by that variant", () => {
    expect(Object.keys(item.canonical({ x: 1, kind: "p" }))).toEqual(["kind", "x"]);
  });
});

describe("the schema language: JSON Schema", () => {
  it("publishes named parts once under $defs and refers to them", () => {
    const document = jsonSchemaDocument(sample, { title: "sample" });
    expect(document).toMatchObject({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      title: "sample",
      type: "object",
      required: ["n", "list"],
      additionalProperties: false,
      properties: {
        n: { type: "integer", minimum: 1, maximum: 100 },
        list: { type: "array", minItems: 1, items: { $ref: "#/$defs/Item" } },
        tag: { type: "string", minLength: 2, pattern: "^[a-z]+$" },
        mode: { enum: ["a", "b"] },
        note: { anyOf: [{ type: "string" }, { type: "null" }] },
      },
    });
    const defs = document.$defs as Record<string, { oneOf: unknown[] }>;
    expect(Object.keys(defs)).toEqual(["Item"]);
    expect(defs.Item!.oneOf).toEqual([
      { type: "object", properties: { kind: { const: "p" }, x: { type: "number" } }, required: ["kind", "x"], additionalProperties: false },
      { type: "object", properties: { kind: { const: "q" } }, required: ["kind"], additionalProperties: false },
    ]);
  });

  it("refuses a tagged union whose variants share a tag or lack one", () => {
    expect(() => taggedUnion("kind", [object({ kind: literal("a") }), object({ kind: literal("a") })])).toThrow(/share kind = "a"/);
    expect(() => taggedUnion("kind", [object({ kind: string() })])).toThrow(/must be a literal/);
  });
});

describe("the schema language: types", () => {
  it("derives the TypeScript type of what it accepts", () => {
    type Sample = Infer<typeof sample>;
    const value: Sample = { n: 1, list: [{ kind: "p", x: 1 }] };
    // @ts-expect-error a required property is required
    const missing: Sample = { list: [] };
    // @ts-expect-error a variant's own properties are required
    const wrongVariant: Sample = { n: 1, list: [{ kind: "p" }] };
    // @ts-expect-error enum values are a union of literals
    const badMode: Sample = { n: 1, list: [], mode: "c" };
    expect([value, missing, wrongVariant, badMode]).toHaveLength(4);
  });
});
