import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { sampleResult, sampleRunInfo } from "./fixtures/sample-result.ts";
import {
  canonicalResult,
  certificationOf,
  certifyJsonOf,
  parseResult,
  ResultError,
  validateResult,
  verdictOf,
  type CheckResult,
  type ResultJson,
} from "./result.ts";
import { schemaFileText } from "./write-schema.ts";

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
    expect(problemOf(missing).path).toBe("$.runInfo.cores");
    const unknown = clone(sampleResult());
    unknown.runInfo.startedAt = "2026-01-01T00:00:00Z";
    expect(problemOf(unknown)).toEqual({ path: "$.runInfo.startedAt", message: "unknown property" });
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
    other.schemaVersion = 2;
    expect(problemOf(other).path).toBe("$.schemaVersion");
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
  it("matches the shape in result.ts (regenerate with npx tsx reports/write-schema.ts)", () => {
    expect(readFileSync(new URL("./result.schema.json", import.meta.url), "utf8")).toBe(schemaFileText());
  });
});

describe("canonical form and the certify projection", () => {
  it("orders keys by the schema whatever order they were built in", () => {
    const result = sampleResult();
    const reversed = JSON.parse(JSON.stringify(result), (_key, value) =>
      value && typeof value === "object" && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).reverse()) : value,
    );
    expect(JSON.stringify(canonicalResult(reversed))).toBe(JSON.stringify(canonicalResult(result)));
    expect(Object.keys(canonicalResult(reversed))).toEqual(["schemaVersion", "runInfo", "certifications", "benchmarks"]);
  });

  it("projects one certification into the exact certify --format json shape", () => {
    const result = sampleResult();
    const json = certifyJsonOf(sampleRunInfo(), result.certifications[1]!);
    expect(Object.keys(json)).toEqual(["schemaVersion", "runInfo", "engine", "verdict", "checks"]);
    expect(json.engine).toEqual({ name: "lcm", version: "0.4.2" });
    expect(json.verdict).toBe("not-certified");
    expect(Object.keys(json.checks[0]!).slice(0, 4)).toEqual(["id", "rule", "title", "level"]);
  });

  it("computes summary and verdict in certificationOf", () => {
    const certification = certificationOf({ name: "e", version: "1" }, sampleResult().certifications[2]!.checks);
    expect(certification.summary).toMatchObject({ total: 9, skipped: 1, error: 1, indeterminate: 1, unexpected: 1 });
    // Its one unexpected outcome is on a SHOULD check, so it stays certified.
    expect(certification.verdict).toBe("certified");
  });
});

describe("reading certify --format json", () => {
  it("lifts one engine's certify JSON into a result with one certification", () => {
    const result = sampleResult();
    const certify = certifyJsonOf(result.runInfo, result.certifications[1]!);
    const lifted = parseResult(JSON.stringify(certify));
    expect(lifted.certifications).toEqual([result.certifications[1]]);
    expect(lifted.benchmarks).toEqual([]);
  });

  it("names the path of a problem in certify JSON, and a verdict the checks contradict", () => {
    const result = sampleResult();
    const certify: any = JSON.parse(JSON.stringify(certifyJsonOf(result.runInfo, result.certifications[1]!)));
    certify.checks[0].level = "MAY";
    expect(() => parseResult(JSON.stringify(certify))).toThrow("$.checks[0].level: expected one of");
    certify.checks[0].level = "MUST";
    certify.verdict = "certified";
    expect(() => parseResult(JSON.stringify(certify))).toThrow('$.verdict: is "certified" but the checks give "not-certified"');
  });
});
