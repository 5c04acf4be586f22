import { describe, expect, it } from "vitest";
import { collapseMatrix, complianceMatrix } from "./matrix.ts";
import { sampleResult } from "../harness/result/sample-result.ts";
import type { ResultJson } from "../harness/result/index.ts";

/** The sample with every check passing for every engine, then the outcomes given. */
function withOutcomes(outcomes: Record<string, Record<string, "pass" | "fail" | "skipped">>): ResultJson {
  const result = sampleResult({ withBenchmarks: false });
  for (const certification of result.certifications) {
    certification.checks = certification.checks.map((check) => ({ ...check, outcome: outcomes[certification.engine.name]?.[check.id] ?? "pass" }));
  }
  return result;
}

describe("the collapsed compliance matrix", () => {
  it("keeps only the checks where engines differ, in catalogue order, and says all others pass", () => {
    const result = withOutcomes({ lcm: { "CMP-2/orphaned-result": "fail" }, truncate: { "SEL-7/return-shape": "skipped" } });
    const collapsed = collapseMatrix(complianceMatrix(result));
    expect(collapsed.rows.map((row) => row.id)).toEqual(["CMP-2/orphaned-result", "SEL-7/return-shape"]);
    expect(collapsed.rows[0]!.cells).toEqual(["+", "-", "+"]);
    expect(collapsed.uniform).toHaveLength(7);
    expect(collapsed.summary).toBe("All other 7 checks pass for all engines.");
  });

  it("counts uniform rows that are not passes instead of calling them passes", () => {
    const result = withOutcomes({
      compressor: { "CMP-2/orphaned-result": "skipped", "CMP-1/message-shape": "fail" },
      lcm: { "CMP-2/orphaned-result": "skipped", "CMP-1/message-shape": "fail" },
      truncate: { "CMP-2/orphaned-result": "skipped", "CMP-1/message-shape": "fail", "SEL-7/return-shape": "skipped" },
    });
    expect(collapseMatrix(complianceMatrix(result)).summary).toBe("All other 8 checks have the same outcome for every engine: 6 pass, 1 fail, 1 not applicable.");
  });

  it("says all checks pass when no engine differs anywhere", () => {
    const collapsed = collapseMatrix(complianceMatrix(withOutcomes({})));
    expect(collapsed.rows).toEqual([]);
    expect(collapsed.summary).toBe("All 9 checks pass for all engines.");
  });
});
