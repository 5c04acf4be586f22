/** Terminal tables (cli-table3). Colour only when asked; engine text never carries escape codes through. */
import Table from "cli-table3";
import { complianceMatrix, MATRIX_LEGEND, noteworthyChecks, type MatrixCell } from "./matrix.ts";
import type { Reporter } from "./reporter.ts";
import type { Certification, CheckOutcome, ResultJson } from "./result.ts";
import { benchmarkTables, runInfoPairs } from "./tables.ts";

type Paint = (text: string, tone: "good" | "bad" | "warn" | "dim" | "bold") => string;

const ANSI = { good: 32, bad: 31, warn: 33, dim: 2, bold: 1 } as const;
const paintWith = (color: boolean): Paint => (color ? (text, tone) => `\u001b[${ANSI[tone]}m${text}\u001b[0m` : (text) => text);

/** Control characters from engine output (ESC above all) shown as visible escapes, never obeyed. */
export function terminalText(text: string, maxLength = 160): string {
  const safe = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (char) => (char === "\n" ? " " : `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`));
  return safe.length > maxLength ? `${safe.slice(0, maxLength - 1)}…` : safe;
}

/** No rule between body rows: long tables stay readable on a terminal. */
const COMPACT_ROWS = { mid: "", "left-mid": "", "mid-mid": "", "right-mid": "" };

const newTable = (head: string[], paint: Paint) =>
  new Table({ head: head.map((cell) => paint(cell, "bold")), style: { head: [], border: [] }, chars: COMPACT_ROWS });


const OUTCOME_TONE: Record<CheckOutcome, "good" | "bad" | "warn" | "dim"> = {
  pass: "good",
  fail: "bad",
  error: "bad",
  timeout: "bad",
  skipped: "dim",
  indeterminate: "warn",
};

const CELL_TONE: Record<MatrixCell, "good" | "bad" | "dim" | "warn"> = { "+": "good", "-": "bad", "N/A": "dim", "": "dim" };

function verdictLine(certification: Certification, paint: Paint): string {
  const { summary } = certification;
  const verdict = paint(certification.verdict.toUpperCase(), certification.verdict === "certified" ? "good" : "bad");
  return `${terminalText(certification.engine.name)} ${terminalText(certification.engine.version)}: ${verdict} — ${summary.pass}/${summary.total} passed, ${summary.fail} failed, ${summary.error} errors, ${summary.timeout} timeouts, ${summary.skipped} skipped, ${summary.indeterminate} indeterminate, ${summary.unexpected} unexpected`;
}

function singleEngine(certification: Certification, paint: Paint): string {
  const table = newTable(["Check", "Level", "Outcome", "Expected", "Time"], paint);
  for (const check of certification.checks) {
    const outcome = paint(check.outcome, OUTCOME_TONE[check.outcome]) + (check.unexpected ? paint(" (unexpected)", "bad") : "");
    table.push([terminalText(`${check.id} ${check.title}`, 80), check.level, outcome, check.expected ?? "", `${check.durationMs.toFixed(1)} ms`]);
  }
  return table.toString();
}

function matrix(result: ResultJson, paint: Paint): string {
  const model = complianceMatrix(result);
  const table = newTable(["Check", "Level", ...model.engines.map((engine) => terminalText(engine.name, 24))], paint);
  for (const row of model.rows) table.push([terminalText(row.id, 60), row.level, ...row.cells.map((cell) => (cell ? paint(cell, CELL_TONE[cell]) : ""))]);
  return `${table.toString()}\n${paint(`Legend: ${MATRIX_LEGEND.replace(/`/g, "")}.`, "dim")}`;
}

function problems(result: ResultJson, paint: Paint): string[] {
  return result.certifications.flatMap((certification) =>
    noteworthyChecks(certification.checks).map((check) => {
      const tag = check.unexpected ? paint("unexpected", "bad") : check.expected ? paint(`expected ${check.expected}`, "dim") : "";
      const replay = check.repro ? `\n    replay: ${terminalText(check.repro.command, 200)}` : "";
      return `  ${terminalText(certification.engine.name)} ${terminalText(check.id)} ${paint(check.outcome, OUTCOME_TONE[check.outcome])} ${tag}\n    ${terminalText(check.message)}${replay}`;
    }),
  );
}

export const terminalReporter: Reporter = {
  format: "terminal",
  render(result, options = {}) {
    const paint = paintWith(options.color === true);
    const out: string[] = [paint(options.title ?? "ctxbench", "bold"), ...runInfoPairs(result).map(([label, value]) => `  ${label}: ${terminalText(value, 200)}`), ""];
    if (result.certifications.length > 0) {
      out.push(paint("Certification", "bold"), ...result.certifications.map((certification) => verdictLine(certification, paint)));
      out.push(result.certifications.length === 1 ? singleEngine(result.certifications[0]!, paint) : matrix(result, paint));
      const notes = problems(result, paint);
      if (notes.length > 0) out.push("Checks that did not pass:", ...notes);
      out.push("");
    }
    for (const bench of benchmarkTables(result)) {
      const table = newTable(bench.headers, paint);
      for (const row of bench.rows) table.push(row.map((cell) => (cell === "MISSED" ? paint(cell, "bad") : terminalText(cell, 60))));
      out.push(paint(terminalText(bench.title), "bold"), table.toString(), ...bench.notes.map((note) => `  ${note.startsWith("warning:") ? paint(terminalText(note, 200), "warn") : terminalText(note, 200)}`), "");
    }
    return `${out.join("\n").trimEnd()}\n`;
  },
};
