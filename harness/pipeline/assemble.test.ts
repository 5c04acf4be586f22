import { describe, expect, it } from "vitest";
import type { EvaluatedCheck } from "../conformance/types.ts";
import { reportCheck } from "./assemble.ts";

const failing = (shownBy: EvaluatedCheck["shownBy"]): EvaluatedCheck => ({
  id: "CMP-2/orphaned-result",
  rule: "CMP-2",
  level: "MUST",
  title: "no tool result without an earlier matching call",
  outcome: "fail",
  message: "orphaned result",
  evidence: [],
  durationMs: 1,
  sources: ["scenario:parallel-tool-calls", "scenario:huge-tool-outputs", "probe:compress"],
  seeds: [3],
  shownBy,
});

describe("a reported check", () => {
  it("names in its repro the run that shows the outcome, not the first run the check read", () => {
    expect(reportCheck(failing([{ source: "scenario:huge-tool-outputs", seed: 3 }]), ["--engine", "lcm"], new Map()).repro).toEqual({
      scenario: "scenario:huge-tool-outputs",
      seed: 3,
      command: "ctxbench certify --engine lcm --checks CMP-2/orphaned-result --seed 3",
    });
    expect(reportCheck(failing([]), ["--engine", "lcm"], new Map()).repro?.scenario).toBe("scenario:parallel-tool-calls");
  });

  it("applies the expectation once: an expected failure is not unexpected, says why, and has no repro", () => {
    const reported = reportCheck(failing([]), ["--engine", "lcm"], new Map([["CMP-2/orphaned-result", { expected: "fail" as const, reason: "known" }]]));
    expect(reported).toMatchObject({ expected: "fail", unexpected: false, message: "orphaned result (expected: known)" });
    expect(reported.repro).toBeUndefined();
  });
});
