import { describe, expect, it } from "vitest";
import { reportCheck } from "./certification.ts";
import type { EvaluatedCheck } from "./types.ts";

const failing = (evidenceSource: string | null): EvaluatedCheck => ({
  id: "CMP-2/orphaned-result",
  rule: "CMP-2",
  level: "MUST",
  title: "no tool result without an earlier matching call",
  outcome: "fail",
  message: "orphaned result",
  evidence: evidenceSource === null ? [] : [{ source: evidenceSource, seq: 4, note: "the orphan", event: { type: "warning", seq: 4, session: "s1", message: "x", rule: null } }],
  durationMs: 1,
  sources: ["scenario:parallel-tool-calls", "scenario:huge-tool-outputs", "probe:compress"],
});

describe("a reported check's repro", () => {
  it("names the run its evidence comes from, not the first run the check read", () => {
    expect(reportCheck(failing("scenario:huge-tool-outputs"), "lcm", 3, new Map()).repro).toEqual({
      scenario: "scenario:huge-tool-outputs",
      seed: 3,
      command: "ctxbench certify --engine lcm --checks CMP-2/orphaned-result --seed 3",
    });
    expect(reportCheck(failing(null), "lcm", 3, new Map()).repro?.scenario).toBe("scenario:parallel-tool-calls");
  });
});
