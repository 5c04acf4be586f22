import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { HOSTILE_TEXT, sampleResult } from "../harness/result/sample-result.ts";
import { tapDescription, tapReporter } from "./tap.ts";

const result = sampleResult();
const tap = tapReporter.render(result);
const lines = tap.trimEnd().split("\n");
const points = lines.filter((line) => /^(not )?ok \d+ /.test(line));

function diagnosticsAfter(pointPrefix: string): unknown {
  const start = lines.findIndex((line) => line.startsWith(pointPrefix));
  expect(lines[start + 1]).toBe("  ---");
  const end = lines.indexOf("  ...", start);
  return parseYaml(lines.slice(start + 2, end).map((line) => line.slice(2)).join("\n"));
}

describe("tap reporter", () => {
  it("starts with the version line and a plan matching the test points, numbered in order", () => {
    expect(lines[0]).toBe("TAP version 14");
    const checks = result.certifications.reduce((sum, certification) => sum + certification.checks.length, 0);
    const goals = result.benchmarks.reduce((sum, suite) => sum + suite.goals.length, 0);
    expect(lines[1]).toBe(`1..${checks + goals}`);
    expect(points).toHaveLength(checks + goals);
    points.forEach((line, index) => expect(line).toMatch(new RegExp(`^(not )?ok ${index + 1} - `)));
  });

  it("marks skips with # SKIP and expected failures with # TODO", () => {
    expect(points.find((line) => line.includes("truncate SEL-7/return-shape"))).toMatch(/^ok \d+ - .* # SKIP not-claimed: select_context$/);
    expect(points.find((line) => line.includes("lcm SEL-8/stable-selection"))).toMatch(/^not ok \d+ - .* # TODO expected fail: selection reordered/);
    expect(points.find((line) => line.includes("lcm CMP-2/orphaned-result"))).not.toContain("# TODO");
  });

  it("writes an unexpected SHOULD outcome as ok with severity warning, never not ok", () => {
    const point = points.find((line) => line.includes("truncate CACHE-2/stable-prefix")) as string;
    expect(point).toMatch(/^ok \d+ - /);
    expect(diagnosticsAfter(point)).toMatchObject({ severity: "warning", outcome: "indeterminate", level: "SHOULD" });
  });

  it("says which way a missed goal's limit binds", () => {
    const store = points.find((line) => line.includes("bench store appends")) as string;
    expect(diagnosticsAfter(store)).toEqual({ measured: 48210, limit: 150000, bound: "at least", unit: "rows/s" });
  });

  it("attaches YAML diagnostics a YAML parser reads back, hostile text intact", () => {
    const diagnostics = diagnosticsAfter("not ok 12 - lcm CMP-2/orphaned-result") as Record<string, any>;
    expect(diagnostics.outcome).toBe("fail");
    expect(diagnostics.message).toContain(HOSTILE_TEXT);
    expect(diagnostics.evidence.events[0].content).toBe(HOSTILE_TEXT);
    expect(diagnostics.replay).toMatch(/^ctxbench certify --engine lcm/);
  });

  it("escapes # and backslashes in descriptions and keeps them on one line", () => {
    expect(tapDescription("a # b \\ c\nd")).toBe("a \\# b \\\\ c d");
  });
});
