import { describe, expect, it } from "vitest";
import { sampleResult } from "../harness/result/sample-result.ts";
import { jsonReporter } from "./json.ts";
import { parseResult } from "../harness/result/index.ts";

describe("json reporter", () => {
  it("writes the result itself, which parses and validates back to an equal value", () => {
    const result = sampleResult();
    const text = jsonReporter.render(result);
    expect(parseResult(text)).toEqual(result);
  });

  it("writes the same bytes whatever order the keys were built in", () => {
    const result = sampleResult();
    const shuffled = JSON.parse(JSON.stringify(result), (_key, value) =>
      value && typeof value === "object" && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).reverse()) : value,
    );
    expect(jsonReporter.render(shuffled)).toBe(jsonReporter.render(result));
    expect(jsonReporter.render(result).startsWith('{\n  "schemaVersion": 2,\n  "runInfo": {\n    "tool"')).toBe(true);
  });
});
