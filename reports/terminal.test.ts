import { describe, expect, it } from "vitest";
import { judgeGoal } from "../harness/bench/goals.ts";
import { RERUN_ADVICE } from "../harness/result/index.ts";
import { sampleResult } from "../harness/result/sample-result.ts";
import { terminalReporter, terminalText, timingText } from "./terminal.ts";
import { certificationOf } from "../harness/result/index.ts";

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

  it("does not show a noisy overhead goal as met (the one harness/bench/suites/overhead.test.ts gets from a loaded machine)", () => {
    const spec = { id: "inheriting-vs-none", engine: null, description: "whole assembly with an inheriting engine ÷ with no engine", limit: 1.01, unit: "×" };
    const goal = judgeGoal(spec, { value: 0.63, low: 0.62, high: 0.64 }, "measured faster than its baseline, which it does the work of and more");
    const result = sampleResult({ withCertifications: false });
    result.benchmarks.find((suite) => suite.suite === "overhead")!.goals = [goal];
    const text = terminalReporter.render(result, { color: false });
    expect(text).toContain(RERUN_ADVICE);
    expect(text).not.toMatch(/inheriting engine ÷ with no engine[^\n]*│ met/);
  });

  it("never passes an engine's control characters through to the terminal", () => {
    const result = sampleResult({ engines: ["lcm"] });
    result.certifications[0]!.checks[2]!.message = `${ESC}[2J${ESC}]0;owned\u0007 cleared`;
    const text = terminalReporter.render(result, { color: false });
    expect(text).not.toContain(ESC);
    expect(text).toContain("\\u001b[2J\\u001b]0;owned\\u0007 cleared");
    expect(terminalText("x".repeat(10), 5)).toBe("xxxx…");
  });

  it("prints the benchmark tables with warnings, then the harness's own figures and goals in a section of their own", () => {
    const result = sampleResult({ withCertifications: false });
    result.benchmarks.find((suite) => suite.suite === "throughput")!.goals.push({ id: "exponent/lcm", engine: "lcm", description: "lcm: fitted scaling exponent", limit: 1.5, measured: 1.12, interval: { low: 1.08, high: 1.17 }, unit: "", status: "met" });
    const text = terminalReporter.render(result, { color: false });
    expect(text).toContain("Compression throughput");
    expect(text).toContain("warning: restore: 3 outliers beyond 3 MAD kept in the sample");
    const [engines, harness] = text.split("\nHarness\n") as [string, string];
    expect(engines).toMatch(/│ throughput\s+│ lcm\s+│ lcm: fitted scaling exponent\s+│ 1\.12 \(1\.08–1\.17\)\s+│ ≤ 1\.5\s+│ met\s+│/);
    expect(engines).not.toMatch(/Session store|appends per second|host's share|identity check/);
    expect(harness).toMatch(/│ overhead\s+│ the identity check itself\s+│ 1\.7 ns \(0\.9–2\.6\)\s+│ ≤ 5 ns\s+│ met\s+│/);
    expect(harness).toMatch(/│ store\s+│ appends per second in batches\s+│ 48,200 rows\/s \(47,100–49,000\)\s+│ ≥ 150,000 rows\/s\s+│ MISSED\s+│/);
    expect(harness).toMatch(/with no engine\s+│ 1\.004× \(0\.998–1\.013\)\s+│ ≤ 1\.01×\s+│ noisy — rerun on a quiet machine\s+│/);
    expect(harness).toContain("Session store");
    expect(harness).toContain("The host's share of a compaction pass");
    expect(harness).not.toContain("lcm: fitted scaling exponent");
  });

  it("starts with the at-a-glance table, one row per engine, before the run info and the matrix", () => {
    const text = terminalReporter.render(sampleResult(), { color: false });
    expect(text.indexOf("At a glance")).toBeLessThan(text.indexOf("Run\n"));
    expect(text.indexOf("Run\n")).toBeLessThan(text.indexOf("Certification\n"));
    const glance = text.slice(text.indexOf("At a glance"), text.indexOf("Run\n"));
    for (const engine of ["compressor", "lcm", "truncate"]) expect(glance).toMatch(new RegExp(`^│ ${engine}\\s+│`, "m"));
    expect(glance).toMatch(/^│ lcm\s+│ NOT certified:\s+│ compress\(\) \+\s+│ 60\.0 %\s+│ 100\.0 %\s+│/m);
    expect(glance).toMatch(/^│ lcm\s+│ 70\.0 %\s+│ 73\.7 %\s+│/m);
  });

  it("splits a wide at-a-glance table into panels that fit 100 columns, each led by the engine column, no column lost", () => {
    const text = terminalReporter.render(sampleResult(), { color: false });
    const glance = text.slice(text.indexOf("At a glance"), text.indexOf("Run\n"));
    const tableLines = glance.split("\n").filter((line) => /^[┌│└├]/.test(line));
    expect(Math.max(...tableLines.map((line) => [...line].length))).toBeLessThanOrEqual(100);
    const panels = tableLines.filter((line) => line.startsWith("│ Engine "));
    expect(panels.length).toBeGreaterThan(1);
    const headerWords = glance.split("\n").filter((line) => line.startsWith("│")).join(" ");
    for (const header of ["Certification", "Implements", "Cache-hit", "Assembly", "Compression", "Scaling"]) expect(headerWords).toContain(header);
    for (const engine of ["compressor", "lcm", "truncate"]) expect(glance.match(new RegExp(`^│ ${engine}\\s+│`, "gm"))).toHaveLength(panels.length);
  });

  it("collapses the matrix to the checks where engines differ, and says the others pass", () => {
    const text = terminalReporter.render(sampleResult(), { color: false });
    expect(text).toContain("All other 3 checks pass for all engines.");
    expect(text).not.toMatch(/│ ABC-1\/name-attribute/);
  });

  it("the terminal line says both and the harness's multiple of the engine's", () => {
    const certification = certificationOf({ name: "e", version: "1" }, [], { shard: null, seeds: [1], checkSetDigest: "0123456789abcdef" });
    expect(timingText(certification)).toBe("");
    certification.timing = { wallMs: 2500, playersMs: 4100, engineMs: 12, harnessMs: 4088 };
    expect(timingText(certification)).toBe("; players' time: engine 12 ms, harness 4.1 s (341× the engine's)");
    certification.timing = { wallMs: 20, playersMs: 30, engineMs: 20, harnessMs: 10 };
    expect(timingText(certification)).toBe("; players' time: engine 20 ms, harness 10 ms (0.5× the engine's)");
    // A result written before playersMs existed split the wall time.
    certification.timing = { wallMs: 4100, engineMs: 12, harnessMs: 4088 };
    expect(timingText(certification)).toBe("; time: engine 12 ms, harness 4.1 s (341× the engine's)");
  });
});
