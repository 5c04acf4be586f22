import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { UsageError } from "./errors.ts";
import { InputTooLargeError, jsonInputProblem, MAX_INPUT_BYTES, MAX_JSON_DEPTH, readTextInput } from "./input-limits.ts";

const tooDeepPath = (value: unknown, maxDepth?: number): string | null => {
  const problem = jsonInputProblem(value, maxDepth);
  if (problem === null) return null;
  expect(problem.message).toBe(`nested deeper than ${maxDepth ?? MAX_JSON_DEPTH} levels of arrays and objects`);
  return problem.path;
};

const dir = mkdtempSync(join(tmpdir(), "ctxbench-limits-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const nested = (depth: number, leaf: unknown = 1): unknown => {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? { k: value } : [value];
  return value;
};

describe("the JSON depth limit", () => {
  it("accepts nesting up to the limit and names the path of the first level past it", () => {
    expect(tooDeepPath(nested(MAX_JSON_DEPTH))).toBeNull();
    expect(tooDeepPath({ a: [1, { b: nested(MAX_JSON_DEPTH - 3) }] })).toBeNull();
    expect(tooDeepPath({ a: [1, { b: nested(MAX_JSON_DEPTH - 2) }] })).not.toBeNull();
    expect(tooDeepPath({ ok: [1, 2], "odd key": nested(3) }, 3)).toBe('$["odd key"].k[0]');
    expect(tooDeepPath([{}, [[[]]]], 3)).toBe("$[1][0][0]");
    expect(tooDeepPath(nested(MAX_JSON_DEPTH + 1))).toBe(`$${".k[0]".repeat(6)}…`);
  });

  it("checks a nesting far deeper than the stack allows without overflowing it", () => {
    const depth = 200_000;
    const value = JSON.parse(`${"[".repeat(depth)}${"]".repeat(depth)}`) as unknown;
    expect(tooDeepPath(value)).toBe(`$${"[0]".repeat(12)}…`);
  });

  it("leaves scalars and flat data alone", () => {
    expect(tooDeepPath("text")).toBeNull();
    expect(tooDeepPath(null)).toBeNull();
    expect(tooDeepPath(Array.from({ length: 10_000 }, (_, i) => ({ i })))).toBeNull();
  });
});

describe('a "__proto__" key', () => {
  it("is refused wherever it sits, with its path; other Object.prototype names are ordinary keys", () => {
    const message = 'the key "__proto__" is not accepted (JavaScript takes it for the prototype)';
    expect(jsonInputProblem(JSON.parse('{"a": [{"__proto__": {"x": 1}}]}'))).toEqual({ path: "$.a[0].__proto__", message });
    expect(jsonInputProblem(JSON.parse('{"__proto__": 1}'))).toEqual({ path: "$.__proto__", message });
    expect(jsonInputProblem(JSON.parse('{"constructor": {"toString": 1}, "hasOwnProperty": []}'))).toBeNull();
  });
});

describe("the input size limit", () => {
  it("reads a file under the limit", () => {
    const path = join(dir, "small.json");
    writeFileSync(path, '{"a": "é"}');
    expect(readTextInput(path, "scenario files")).toBe('{"a": "é"}');
  });

  it("refuses a larger file by its size, before reading it, as a usage error naming file, size and limit", () => {
    const path = join(dir, "huge.json");
    writeFileSync(path, "");
    truncateSync(path, 300 * 1024 * 1024); // sparse: nothing is written
    expect(() => readTextInput(path, "scenario files")).toThrow(InputTooLargeError);
    expect(() => readTextInput(path, "scenario files")).toThrow(UsageError);
    expect(() => readTextInput(path, "scenario files")).toThrow(`${path} is 300 MiB; ctxbench reads scenario files of at most 256 MiB`);
    expect(MAX_INPUT_BYTES).toBe(256 * 1024 * 1024);
    expect(() => readTextInput(path, "result files", 1024)).toThrow("at most 1 KiB");
  });
});
