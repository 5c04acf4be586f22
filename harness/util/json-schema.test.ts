import { describe, expect, it } from "vitest";
import { fromJsonSchema } from "./json-schema.ts";
import { integer, object, optional, string, jsonSchemaDocument, array, taggedUnion, literal, nullable, record, union } from "./schema.ts";

const described = object({
  n: integer({ minimum: 1, maximum: 100 }),
  tag: optional(string({ pattern: "^[a-z]+$", minLength: 2 })),
  note: optional(nullable(string())),
  items: array(taggedUnion("kind", [object({ kind: literal("p"), x: integer() }), object({ kind: literal("q") })]), { minItems: 1 }),
  uids: optional(record(union([string(), array(nullable(string()))]))),
});

describe("reading a JSON Schema document into the schema language", () => {
  const read = fromJsonSchema(jsonSchemaDocument(described, {}));

  it.each([
    [{ n: 1, items: [{ kind: "q" }], uids: { a: "x", b: ["y", null] }, note: null }],
    [{ n: 100, tag: "ab", items: [{ kind: "p", x: 3 }] }],
  ])("accepts what the schema it was generated from accepts: %j", (value) => {
    expect(described.check(value, "$")).toBeNull();
    expect(read.check(value, "$")).toBeNull();
  });

  it.each([
    [{ items: [{ kind: "q" }] }],
    [{ n: 0, items: [{ kind: "q" }] }],
    [{ n: 101, items: [{ kind: "q" }] }],
    [{ n: 1.5, items: [{ kind: "q" }] }],
    [{ n: 1, items: [] }],
    [{ n: 1, items: [{ kind: "q" }], extra: 1 }],
    [{ n: 1, items: [{ kind: "q" }], constructor: 1 }],
    [{ n: 1, items: [{ kind: "q" }], tag: "A1" }],
    [{ n: 1, items: [{ kind: "p", x: "1" }] }],
    [{ n: 1, items: [{ kind: "q" }], uids: { a: 1 } }],
    [{ n: 1, items: [{ kind: "q" }], note: 3 }],
  ])("names the same first problem as the schema it was generated from: %j", (value) => {
    const problem = described.check(value, "$");
    expect(problem).not.toBeNull();
    expect(read.check(value, "$")?.path).toBe(problem!.path);
  });

  it("follows $ref into $defs, and refuses a keyword it does not know rather than ignoring it", () => {
    const document = { $defs: { Id: { type: "string", minLength: 1 } }, type: "object", required: ["id"], properties: { id: { $ref: "#/$defs/Id" } }, additionalProperties: false };
    expect(fromJsonSchema(document).check({ id: "" }, "$")).toEqual({ path: "$.id", message: 'expected a string of at least 1 character, got the string ""' });
    expect(fromJsonSchema(document, "#/$defs/Id").check("x", "$")).toBeNull();
    expect(() => fromJsonSchema({ type: "string", format: "uri" })).toThrow(/"format" is not supported/);
  });
});
