import { readFileSync } from "node:fs";
import { PACKAGE_JSON } from "../util/package-root.ts";
import { describe, expect, it } from "vitest";
import { sampleResult } from "./sample-result.ts";
import {
  canonicalResult,
  certificationOf,
  checkSetDigest,
  parseResult,
  ResultError,
  validateResult,
  verdictOf,
  type CheckResult,
  type ResultJson,
} from "./index.ts";
import { resultSchemaFileText } from "./write-schema.ts";

const clone = (value: ResultJson): any => JSON.parse(JSON.stringify(value));

function problemOf(value: unknown) {
  const outcome = validateResult(value);
  if (outcome.ok) throw new Error("expected a problem");
  return outcome.problem;
}

describe("result validation", () => {
  it("accepts the sample result with certifications and every benchmark suite", () => {
    const outcome = validateResult(clone(sampleResult()));
    expect(outcome.ok).toBe(true);
  });

  it("names the JSON path of a bad enum value", () => {
    const bad = clone(sampleResult());
    bad.certifications[1].checks[2].outcome = "passed";
    expect(problemOf(bad)).toEqual({ path: "$.certifications[1].checks[2].outcome", message: expect.stringContaining('"pass"') });
  });

  it("names a missing and an unknown property", () => {
    const missing = clone(sampleResult());
    delete missing.runInfo.cores;
    expect(problemOf(missing)).toEqual({ path: "$.runInfo", message: 'missing required property "cores"' });
    const unknown = clone(sampleResult());
    unknown.runInfo.startedAt = "2026-01-01T00:00:00Z";
    expect(problemOf(unknown)).toEqual({ path: "$.runInfo.startedAt", message: 'unknown property "startedAt"' });
  });

  it("tells benchmark suites apart by their suite tag", () => {
    const bad = clone(sampleResult());
    bad.benchmarks[2].engines[0].points[1].medianMs = -1;
    expect(problemOf(bad).path).toBe("$.benchmarks[2].engines[0].points[1].medianMs");
    bad.benchmarks[2].suite = "latency";
    expect(problemOf(bad).path).toBe("$.benchmarks[2].suite");
  });

  it("rejects a summary or verdict that disagrees with the checks", () => {
    const badSummary = clone(sampleResult());
    badSummary.certifications[0].summary.pass += 1;
    expect(problemOf(badSummary).path).toBe("$.certifications[0].summary.pass");
    const badVerdict = clone(sampleResult());
    badVerdict.certifications[1].verdict = "certified";
    expect(problemOf(badVerdict).path).toBe("$.certifications[1].verdict");
  });

  it("rejects another schema version and non-JSON text with a ResultError", () => {
    const other = clone(sampleResult());
    other.schemaVersion = 3;
    expect(problemOf(other).path).toBe("$.schemaVersion");
    other.schemaVersion = 1;
    expect(problemOf(other)).toEqual({ path: "$.schemaVersion", message: "is 1, but this ctxbench reads results of schema version 2 (rerun with this ctxbench to get one)" });
    expect(() => parseResult("{not json")).toThrow(ResultError);
    expect(() => parseResult("{not json")).toThrow(/^\$: not JSON/);
  });
});

describe("verdict", () => {
  const check = (overrides: Partial<CheckResult>): CheckResult => ({
    id: "CMP-1/x", rule: "CMP-1", title: "t", level: "MUST", outcome: "pass", expected: null, unexpected: false,
    message: "", evidence: { events: [] }, durationMs: 1, ...overrides,
  });
  it("fails only on an unexpected MUST outcome that is not a pass", () => {
    expect(verdictOf([check({ outcome: "fail", unexpected: true })])).toBe("not-certified");
    expect(verdictOf([check({ outcome: "fail", expected: "fail" })])).toBe("certified");
    expect(verdictOf([check({ level: "SHOULD", outcome: "fail", unexpected: true })])).toBe("certified");
    expect(verdictOf([check({ outcome: "pass", expected: "fail", unexpected: true })])).toBe("certified");
  });
});

describe("published JSON Schema", () => {
  it("matches the result schema (regenerate with npx tsx harness/result/write-schema.ts)", () => {
    expect(readFileSync(new URL("./result.schema.json", import.meta.url), "utf8")).toBe(resultSchemaFileText());
  });

  it("says that certify --format json, --out's result.json, report and merge share this one document", () => {
    const schema = JSON.parse(resultSchemaFileText()) as { description: string };
    expect(schema.description).toContain("`ctxbench certify --format json` prints this document and `--out DIR` writes it as result.json");
    expect(schema.description).toContain("`ctxbench report` and `ctxbench merge` read it");
  });
});

describe("canonical form", () => {
  it("orders keys by the schema whatever order they were built in", () => {
    const result = sampleResult();
    const reversed = JSON.parse(JSON.stringify(result), (_key, value) =>
      value && typeof value === "object" && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).reverse()) : value,
    );
    expect(JSON.stringify(canonicalResult(reversed))).toBe(JSON.stringify(canonicalResult(result)));
    expect(Object.keys(canonicalResult(reversed))).toEqual(["schemaVersion", "runInfo", "certifications", "benchmarks"]);
  });

  it("computes summary and verdict in certificationOf", () => {
    const checks = sampleResult().certifications[2]!.checks;
    const certification = certificationOf({ name: "e", version: "1" }, checks, { shard: null, seeds: [1], checkSetDigest: checkSetDigest(checks) });
    expect(certification.summary).toMatchObject({ total: 9, skipped: 1, error: 1, indeterminate: 1, unexpected: 1 });
    // Its one unexpected outcome is on a SHOULD check, so it stays certified.
    expect(certification.verdict).toBe("certified");
  });
});

describe("derived fields are recomputed, not trusted", () => {
  it("refuses a check whose unexpected flag disagrees with its outcome and expectation (a tampered pass)", () => {
    const tampered = clone(sampleResult());
    const check = tampered.certifications[1].checks.find((c: CheckResult) => c.outcome === "fail" && c.expected === null);
    check.unexpected = false;
    delete check.repro;
    // Summary and verdict edited to agree, as a careful forger would.
    tampered.certifications[1].summary.unexpected -= 1;
    const index = tampered.certifications[1].checks.indexOf(check);
    expect(problemOf(tampered)).toEqual({
      path: `$.certifications[1].checks[${index}].unexpected`,
      message: 'is false, but outcome "fail" with no expectation listed is unexpected',
    });
  });

  it("refuses a check id the catalogue does not know, one seen twice, and a level the catalogue contradicts", () => {
    const unknown = clone(sampleResult());
    unknown.certifications[0].checks[0].id = "CMP-1/made-up";
    expect(problemOf(unknown)).toEqual({ path: "$.certifications[0].checks[0].id", message: `"CMP-1/made-up" is not a check of ctxbench ${PACKAGE_JSON.version}` });
    const twice = clone(sampleResult());
    twice.certifications[0].checks[1] = { ...twice.certifications[0].checks[0] };
    expect(problemOf(twice)).toEqual({ path: "$.certifications[0].checks[1].id", message: `check "ABC-1/base-class-and-members" appears twice in the certification of "compressor"` });
    const demoted = clone(sampleResult());
    const failing = demoted.certifications[1].checks.findIndex((c: CheckResult) => c.id === "CMP-2/orphaned-result");
    demoted.certifications[1].checks[failing].level = "SHOULD";
    expect(problemOf(demoted)).toEqual({ path: `$.certifications[1].checks[${failing}].level`, message: 'is "SHOULD", but check "CMP-2/orphaned-result" is MUST' });
     const moved = clone(sampleResult());
    moved.certifications[1].checks[failing].rule = "CMP-3";
    expect(problemOf(moved)).toEqual({ path: `$.certifications[1].checks[${failing}].rule`, message: 'is "CMP-3", but check "CMP-2/orphaned-result" belongs to rule CMP-2' });
  });

  it("refuses a whole selection that lost a check, and a shard past its count", () => {
    const dropped = clone(sampleResult());
    dropped.certifications[0].checks.pop();
    dropped.certifications[0].summary = { ...dropped.certifications[0].summary, total: 8, pass: 8 };
    expect(problemOf(dropped)).toEqual({ path: "$.certifications[0].checkSetDigest", message: "does not match its 8 checks: a check of the selection is missing, or one was added" });
    const shard = clone(sampleResult());
    shard.certifications[0].shard = { index: 3, count: 2 };
    expect(problemOf(shard)).toEqual({ path: "$.certifications[0].shard.index", message: "is 3, past the shard count 2" });
  });

  it("gives no checks no certification", () => {
    expect(verdictOf([])).toBe("not-certified");
  });
});
