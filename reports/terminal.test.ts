import { describe, expect, it } from "vitest";
import { sampleResult } from "./fixtures/sample-result.ts";
import { terminalReporter, terminalText } from "./terminal.ts";

const ESC = "\u001b";

describe("terminal reporter", () => {
  it("writes no escape codes without colour, and colours verdicts with it", () => {
    expect(terminalReporter.render(sampleResult(), { color: false })).not.toContain(ESC);
    expect(terminalReporter.render(sampleResult(), { color: true })).toContain(`${ESC}[31mNOT-CERTIFIED${ESC}[0m`);
  });

  it("shows a compliance matrix for several engines and a check table for one", () => {
    const several = terminalReporter.render(sampleResult(), { color: false });
    expect(several).toMatch(/│ CMP-2\/orphaned-result\s+│ MUST\s+│ \+\s+│ -\s+│ \+\s+│/);
    expect(several).toContain("Legend: + pass, - fail, N/A not applicable (skipped), blank unknown.");
    const one = terminalReporter.render(sampleResult({ engines: ["lcm"] }), { color: false });
    expect(one).toMatch(/│ CMP-2\/orphaned-result no tool result is left without its call\s+│ MUST\s+│ fail \(unexpected\)/);
    expect(one).not.toContain("Legend:");
  });

  it("never passes an engine's control characters through to the terminal", () => {
    const result = sampleResult({ engines: ["lcm"] });
    result.certifications[0]!.checks[2]!.message = `${ESC}[2J${ESC}]0;owned\u0007 cleared`;
    const text = terminalReporter.render(result, { color: false });
    expect(text).not.toContain(ESC);
    expect(text).toContain("\\u001b[2J\\u001b]0;owned\\u0007 cleared");
    expect(terminalText("x".repeat(10), 5)).toBe("xxxx…");
  });

  it("prints the benchmark tables with warnings and goals", () => {
    const text = terminalReporter.render(sampleResult({ withCertifications: false }), { color: false });
    expect(text).toContain("Compression throughput");
    expect(text).toContain("warning: restore: 3 outliers beyond 3 MAD kept in the sample");
    expect(text).toMatch(/│ overhead\s+│ harness\s+│ the identity check itself\s+│ 1\.7 ns \(0\.9–2\.6\)\s+│ ≤ 5 ns\s+│ met\s+│/);
    expect(text).toMatch(/│ store\s+│ harness\s+│ appends per second in batches\s+│ 48,200 rows\/s \(47,100–49,000\)\s+│ ≥ 150,000 rows\/s\s+│ MISSED\s+│/);
    expect(text).toMatch(/with no engine\s+│ 1\.004× \(0\.998–1\.013\)\s+│ ≤ 1\.01×\s+│ noisy — rerun on a quiet machine\s+│/);
  });
});
