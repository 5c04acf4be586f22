/** The compliance matrix (checks × engines) with the OpenTelemetry legend. */
import type { CheckLevel, CheckOutcome, CheckResult, NamedVersion, ResultJson } from "./result.ts";

/** `+` pass, `-` fail (also error and timeout), `N/A` skipped, blank unknown (indeterminate or not run). */
export type MatrixCell = "+" | "-" | "N/A" | "";

export const MATRIX_LEGEND = "`+` pass, `-` fail, `N/A` not applicable (skipped), blank unknown";

export interface MatrixRow {
  id: string;
  rule: string;
  title: string;
  level: CheckLevel;
  /** One per engine, in the matrix's engine order; null when that engine did not run the check. */
  checks: (CheckResult | null)[];
  cells: MatrixCell[];
}

export interface ComplianceMatrix {
  engines: NamedVersion[];
  rows: MatrixRow[];
}

export function cellOf(outcome: CheckOutcome | undefined): MatrixCell {
  switch (outcome) {
    case "pass":
      return "+";
    case "fail":
    case "error":
    case "timeout":
      return "-";
    case "skipped":
      return "N/A";
    case "indeterminate":
    case undefined:
      return "";
  }
}

/** Rows in the order checks are first met, so the catalogue's order is kept. */
export function complianceMatrix(result: ResultJson): ComplianceMatrix {
  const engines = result.certifications.map((certification) => certification.engine);
  const rows = new Map<string, MatrixRow>();
  result.certifications.forEach((certification, column) => {
    for (const check of certification.checks) {
      let row = rows.get(check.id);
      if (!row) {
        row = { id: check.id, rule: check.rule, title: check.title, level: check.level, checks: engines.map(() => null), cells: [] };
        rows.set(check.id, row);
      }
      row.checks[column] = check;
    }
  });
  for (const row of rows.values()) row.cells = row.checks.map((check) => cellOf(check?.outcome));
  return { engines, rows: [...rows.values()] };
}

/** Checks worth a closer look: anything that did not pass, except plain skips. */
export function noteworthyChecks(checks: readonly CheckResult[]): CheckResult[] {
  return checks.filter((check) => (check.outcome !== "pass" && check.outcome !== "skipped") || check.unexpected);
}
