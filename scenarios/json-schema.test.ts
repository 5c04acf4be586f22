import { describe, expect, it } from "vitest";
import { JsonSchemaValidator, keywordsUsed, SUPPORTED_KEYWORDS } from "./json-schema.ts";
import { SCENARIO_SCHEMA } from "./validate.ts";

describe("the JSON Schema interpreter", () => {
  it("understands every keyword the published scenario schema uses", () => {
    const unsupported = [...keywordsUsed(SCENARIO_SCHEMA)].filter((k) => !SUPPORTED_KEYWORDS.has(k));
    expect(unsupported).toEqual([]);
  });

  const validator = new JsonSchemaValidator({
    type: "object",
    required: ["n", "list"],
    additionalProperties: false,
    properties: {
      n: { type: "integer", minimum: 1, maximum: 100 },
      list: { type: "array", minItems: 1, items: { $ref: "#/$defs/Item" } },
      tag: { type: "string", pattern: "^[a-z]+$", minLength: 2 },
      mode: { enum: ["a", "b"] },
    },
    $defs: {
      Item: {
        oneOf: [
          { type: "object", required: ["kind", "x"], additionalProperties: false, properties: { kind: { const: "p" }, x: { type: "number" } } },
          { type: "object", required: ["kind"], additionalProperties: false, properties: { kind: { const: "q" } } },
        ],
      },
    },
  });

  it("accepts a conforming value", () => {
    expect(validator.validate({ n: 1, list: [{ kind: "p", x: 1.5 }, { kind: "q" }], tag: "ab", mode: "b" })).toBeNull();
  });

  it.each([
    [{ list: [{ kind: "q" }] }, "$", 'missing required property "n"'],
    [{ n: 0, list: [{ kind: "q" }] }, "$.n", "must be >= 1"],
    [{ n: 1.5, list: [{ kind: "q" }] }, "$.n", "expected integer"],
    [{ n: 101, list: [{ kind: "q" }] }, "$.n", "must be <= 100, got 101"],
    [{ n: 1, list: [] }, "$.list", "at least 1 item"],
    [{ n: 1, list: [{ kind: "q" }], extra: 1 }, "$.extra", 'unknown property "extra"'],
    [{ n: 1, list: [{ kind: "q" }], tag: "A1" }, "$.tag", "must match"],
    [{ n: 1, list: [{ kind: "q" }], mode: "c" }, "$.mode", "expected one of"],
    // The discriminator picks the alternative that explains the problem.
    [{ n: 1, list: [{ kind: "q" }, { kind: "p", x: "1" }] }, "$.list[1].x", "expected number"],
    [{ n: 1, list: [{ kind: "r" }] }, "$.list[0]", 'kind="p" | kind="q"'],
  ])("reports the JSON path of the first problem in %j", (value, path, message) => {
    const problem = validator.validate(value);
    expect(problem?.path).toBe(path);
    expect(problem?.message).toContain(message);
  });

  // Properties are looked up as own properties: Object.prototype's members are no schema.
  it.each([["constructor"], ["toString"], ["__proto__"], ["hasOwnProperty"], ["valueOf"]])("refuses %s as an unknown property", (key) => {
    const value = JSON.parse(`{"n": 1, "list": [{"kind": "q"}], ${JSON.stringify(key)}: 1}`) as unknown;
    expect(validator.validate(value)).toEqual({ path: `$.${key}`, message: `unknown property "${key}"` });
    const item = JSON.parse(`{"n": 1, "list": [{"kind": "q", ${JSON.stringify(key)}: {}}]}`) as unknown;
    expect(validator.validate(item)).toEqual({ path: `$.list[0].${key}`, message: `unknown property "${key}"` });
  });

  it("does not take an inherited member for a required property", () => {
    const v = new JsonSchemaValidator({ type: "object", required: ["toString", "constructor"] });
    expect(v.validate({})).toEqual({ path: "$", message: 'missing required property "toString"' });
  });

  it("quotes member names that are not identifiers", () => {
    const v = new JsonSchemaValidator({ type: "object", additionalProperties: { type: "string" } });
    expect(v.validate({ "a b": 1 })?.path).toBe('$["a b"]');
  });
});
