import { describe, expect, it } from "vitest";
import { HOSTILE_TEXT, sampleResult } from "../harness/result/sample-result.ts";
import { junitReporter } from "./junit.ts";
import { parseXml, type XmlElement } from "./xml-parse.ts";

const result = sampleResult();
const xml = junitReporter.render(result);
const root = parseXml(xml);
const suites = root.children.filter((child) => child.name === "testsuite");
const suiteOf = (engine: string) => suites.find((suite) => suite.attributes.name?.startsWith(`certify ${engine} `))!;
const caseOf = (suite: XmlElement, checkId: string) => suite.children.find((child) => child.name === "testcase" && child.attributes.name?.startsWith(`${checkId} `))!;

describe("junit reporter", () => {
  it("is well-formed XML with a testsuites root", () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
    expect(root.name).toBe("testsuites");
  });

  it("writes one testsuite per engine and one testcase per check, with matching counts", () => {
    for (const certification of result.certifications) {
      const suite = suiteOf(certification.engine.name);
      const cases = suite.children.filter((child) => child.name === "testcase");
      expect(cases).toHaveLength(certification.checks.length);
      const kinds = (kind: string) => cases.filter((test) => test.children.some((child) => child.name === kind)).length;
      expect(Number(suite.attributes.tests)).toBe(cases.length);
      expect(Number(suite.attributes.failures)).toBe(kinds("failure"));
      expect(Number(suite.attributes.errors)).toBe(kinds("error"));
      expect(Number(suite.attributes.skipped)).toBe(kinds("skipped"));
    }
    const total = suites.reduce((sum, suite) => sum + Number(suite.attributes.tests), 0);
    expect(Number(root.attributes.tests)).toBe(total);
  });

  it("writes an unexpected failure with its message and evidence, transcript markup intact as text", () => {
    const failure = caseOf(suiteOf("lcm"), "CMP-2/orphaned-result").children[0]!;
    expect(failure.name).toBe("failure");
    expect(failure.attributes.type).toBe("fail");
    // The BEL control character cannot exist in XML; it is shown as \u0007, everything else round-trips.
    const shown = HOSTILE_TEXT.replace("\u0007", "\\u0007");
    expect(failure.attributes.message).toContain(shown);
    expect(failure.text).toContain("Evidence:");
    expect(failure.text).toContain('<script>alert(\\"xss\\")</script>');
    expect(failure.text).toContain("Replay: ctxbench certify --engine lcm --checks CMP-2/orphaned-result --seed 42");
  });

  it("writes an expected failure as skipped with the reason, and a timeout as an error", () => {
    const expected = caseOf(suiteOf("lcm"), "SEL-8/stable-selection").children[0]!;
    expect(expected.name).toBe("skipped");
    expect(expected.text).toMatch(/^expected: selection reordered 2 messages/);
    expect(caseOf(suiteOf("lcm"), "THR-2/session-isolation").children[0]!.name).toBe("error");
    expect(caseOf(suiteOf("truncate"), "SEL-7/return-shape").children[0]!.text).toBe("not-claimed: select_context");
    expect(caseOf(suiteOf("compressor"), "CMP-2/orphaned-result").children).toEqual([]);
  });

  it("writes an unexpected SHOULD outcome as a passing case with the warning on system-out, never a failure", () => {
    const warned = caseOf(suiteOf("truncate"), "CACHE-2/stable-prefix");
    expect(warned.children.map((child) => child.name)).toEqual(["system-out"]);
    expect(warned.children[0]!.text).toMatch(/^warning: SHOULD CACHE-2\/stable-prefix indeterminate \(unexpected\): too few turns/);
    const changed = sampleResult({ engines: ["truncate"], withBenchmarks: false });
    for (const check of changed.certifications[0]!.checks.filter((c) => c.level === "SHOULD")) Object.assign(check, { outcome: "fail", expected: null, unexpected: true });
    const suite = parseXml(junitReporter.render(changed)).children[0]!;
    expect(Number(suite.attributes.failures) + Number(suite.attributes.errors)).toBe(
      changed.certifications[0]!.checks.filter((c) => c.level === "MUST" && c.unexpected && c.outcome !== "pass").length,
    );
  });

  it("turns an unexpected pass into a failure and a missed benchmark goal into a failing testcase", () => {
    const changed = sampleResult();
    const check = changed.certifications[0]!.checks[0]!;
    Object.assign(check, { expected: "fail", unexpected: true });
    changed.benchmarks[0]!.goals[0]!.status = "missed";
    const reparsed = parseXml(junitReporter.render(changed));
    const unexpectedPass = reparsed.children[0]!.children.find((child) => child.name === "testcase")!.children[0]!;
    expect(unexpectedPass.attributes.type).toBe("unexpected-pass");
    const bench = reparsed.children.find((suite) => suite.attributes.name === "bench overhead")!;
    expect(bench.children.filter((child) => child.name === "testcase")[0]!.children[0]!.attributes.type).toBe("goal-missed");
  });

  it("words a missed floor as falling short of it, not as exceeding it", () => {
    const reparsed = parseXml(junitReporter.render(sampleResult()));
    const store = reparsed.children.find((suite) => suite.attributes.name === "bench store")!;
    const failure = store.children.find((child) => child.name === "testcase")!.children[0]!;
    expect(failure.attributes.message).toBe("48210 rows/s < 150000 rows/s");
  });

  it("writes no wall-clock timestamp, so the same result gives the same bytes", () => {
    expect(xml).not.toMatch(/timestamp=/);
    expect(junitReporter.render(sampleResult())).toBe(xml);
  });
});
