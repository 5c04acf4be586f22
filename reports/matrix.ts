/** The compliance matrix (checks × engines) with the OpenTelemetry legend. */
import type { CheckLevel, CheckOutcome, CheckResult, NamedVersion, ResultJson } from "../harness/result/index.ts";

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

/** The matrix a reader choosing an engine needs: the checks where engines differ, and a line for the rest. */
export interface CollapsedMatrix {
  engines: NamedVersion[];
  /** Rows whose cells are not all the same. */
  rows: MatrixRow[];
  /** Rows left out because every engine has the same cell there. */
  uniform: MatrixRow[];
  /** One sentence about the rows left out ("All other 31 checks pass for all engines."), or null when none were. */
  summary: string | null;
}

const CELL_VERB: Record<MatrixCell, string> = { "+": "pass", "-": "fail", "N/A": "are not applicable", "": "are unknown" };
const CELL_COUNTED: Record<MatrixCell, string> = { "+": "pass", "-": "fail", "N/A": "not applicable", "": "unknown" };

export function collapseMatrix(matrix: ComplianceMatrix): CollapsedMatrix {
  const differs = (row: MatrixRow) => new Set(row.cells).size > 1;
  const rows = matrix.rows.filter(differs);
  const uniform = matrix.rows.filter((row) => !differs(row));
  return { engines: matrix.engines, rows, uniform, summary: uniformSummary(uniform, rows.length === 0) };
}

function uniformSummary(uniform: readonly MatrixRow[], all: boolean): string | null {
  if (uniform.length === 0) return null;
  const counts = new Map<MatrixCell, number>();
  for (const row of uniform) counts.set(row.cells[0] ?? "", (counts.get(row.cells[0] ?? "") ?? 0) + 1);
  const checks = (n: number) => `${n} check${n === 1 ? "" : "s"}`;
  const subject = all ? `All ${checks(uniform.length)}` : `All other ${checks(uniform.length)}`;
  if (counts.size === 1) {
    const [cell] = [...counts.keys()];
    return `${subject} ${CELL_VERB[cell!]} for all engines.`;
  }
  const parts = (["+", "-", "N/A", ""] as const).filter((cell) => counts.has(cell)).map((cell) => `${counts.get(cell)} ${CELL_COUNTED[cell]}`);
  return `${subject} have the same outcome for every engine: ${parts.join(", ")}.`;
}
