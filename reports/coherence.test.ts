import { describe, expect, it } from "vitest";
import { CHECKS } from "../harness/conformance/checks/index.ts";
import { catalogueProblem, checksCoherenceProblem } from "./coherence.ts";
import { sampleResult } from "./fixtures/sample-result.ts";
import { certificationOf, parseResult, type CheckResult, type ResultJson } from "./result.ts";

/** A sample result with one check of one certification edited, summary and verdict recomputed so only the edit is wrong. */
function edited(edit: (check: CheckResult) => void, engine = "lcm", id = "CMP-2/orphaned-result"): ResultJson {
  const result = sampleResult({ withBenchmarks: false });
  result.certifications = result.certifications.map((certification) => {
    if (certification.engine.name !== engine) return certification;
    const checks = certification.checks.map((check) => ({ ...check }));
    edit(checks.find((check) => check.id === id)!);
    return certificationOf(certification.engine, checks);
  });
  return result;
}

describe("a result whose checks do not hang together is refused", () => {
  it("accepts the sample as it is", () => {
    expect(checksCoherenceProblem(sampleResult())).toBeNull();
  });

  it("a failing MUST check marked expected with no expectation listed (a tampered file reads as certified)", () => {
    const tampered = edited((check) => void (check.unexpected = false));
    expect(tampered.certifications[1]!.verdict).toBe("not-certified"); // THR-2's timeout still fails lcm; the tamper is what is refused
    expect(checksCoherenceProblem(tampered)).toEqual({
      path: "$.certifications[1].checks[2].unexpected",
      message: 'is false, but outcome "fail" with no expectation listed is unexpected',
    });
    expect(() => parseResult(JSON.stringify(tampered), "shard.json")).toThrow(
      'shard.json: $.certifications[1].checks[2].unexpected: is false, but outcome "fail" with no expectation listed is unexpected',
    );
  });

  it("an expected failure marked unexpected", () => {
    const tampered = edited((check) => void (check.unexpected = true), "lcm", "SEL-8/stable-selection");
    expect(checksCoherenceProblem(tampered)?.message).toBe('is true, but outcome "fail" with expected "fail" is expected');
  });

  it("a check listed twice in one certification", () => {
    const result = sampleResult({ withBenchmarks: false });
    const [first] = result.certifications;
    result.certifications[0] = certificationOf(first!.engine, [...first!.checks, first!.checks[0]!]);
    expect(checksCoherenceProblem(result)).toEqual({
      path: `$.certifications[0].checks[${first!.checks.length}].id`,
      message: 'check "ABC-1/name-attribute" appears twice in the certification of "compressor"',
    });
  });
});

describe("checks measured against a catalogue", () => {
  const real = (checks: readonly CheckResult[]): ResultJson => {
    const result = sampleResult({ engines: ["compressor"], withBenchmarks: false });
    result.certifications = [certificationOf(result.certifications[0]!.engine, [...checks])];
    return result;
  };
  const template = sampleResult({ engines: ["compressor"], withBenchmarks: false }).certifications[0]!.checks[0]!;
  const asReported = (id: string): CheckResult => {
    const check = CHECKS.find((entry) => entry.id === id)!;
    return { ...template, id: check.id, rule: check.rule, level: check.level };
  };

  it("accepts checks of the catalogue as the catalogue states them", () => {
    expect(catalogueProblem(real([asReported("CMP-2/orphaned-result"), asReported("CACHE-2/stable-prefix")]), CHECKS, "this ctxbench")).toBeNull();
  });

  it("refuses an id the catalogue does not have", () => {
    expect(catalogueProblem(real([{ ...asReported("CMP-2/orphaned-result"), id: "CMP-2/made-up" }]), CHECKS, "ctxbench 0.1.0")).toEqual({
      path: "$.certifications[0].checks[0].id",
      message: '"CMP-2/made-up" is not a check of ctxbench 0.1.0',
    });
  });

  it("refuses a MUST check turned into a SHOULD one, and a check moved to another rule", () => {
    expect(catalogueProblem(real([{ ...asReported("CMP-2/orphaned-result"), level: "SHOULD" }]), CHECKS, "x")?.message).toBe('is "SHOULD", but check "CMP-2/orphaned-result" is MUST');
    expect(catalogueProblem(real([{ ...asReported("CMP-2/orphaned-result"), rule: "CMP-3" }]), CHECKS, "x")?.message).toBe('is "CMP-3", but check "CMP-2/orphaned-result" belongs to rule CMP-2');
  });
});
