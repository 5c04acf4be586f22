/** Terminal tables (cli-table3). Colour only when asked; engine text never carries escape codes through. */
import Table from "cli-table3";
import { atAGlance, glanceRow } from "./at-a-glance.ts";
import { collapseMatrix, complianceMatrix, MATRIX_LEGEND, noteworthyChecks, type MatrixCell } from "./matrix.ts";
import type { Reporter } from "./reporter.ts";
import type { Certification, CheckOutcome, ResultJson } from "../harness/result/index.ts";
import { benchmarkTables, HARNESS_NOTE, harnessTables, runInfoPairs, type Table as DataTable } from "./tables.ts";

type Paint = (text: string, tone: "good" | "bad" | "warn" | "dim" | "bold" | "plain") => string;

const ANSI = { good: 32, bad: 31, warn: 33, dim: 2, bold: 1 } as const;
const paintWith = (color: boolean): Paint =>
  color ? (text, tone) => (tone === "plain" ? text : text.split("\n").map((line) => `\u001b[${ANSI[tone]}m${line}\u001b[0m`).join("\n")) : (text) => text;

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
  return `${terminalText(certification.engine.name)} ${terminalText(certification.engine.version)}: ${verdict} — ${summary.pass}/${summary.total} passed, ${summary.fail} failed, ${summary.error} errors, ${summary.timeout} timeouts, ${summary.skipped} skipped, ${summary.indeterminate} indeterminate, ${summary.unexpected} unexpected${timingText(certification)}`;
}

/**
 * "; players' time: engine 12 ms, harness 4.1 s (340× the engine's)": where the time of the players
 * that played the runs went, summed over them. An older result (no playersMs) split the wall time instead.
 */
export function timingText(certification: Certification): string {
  const timing = certification.timing;
  if (timing === undefined) return "";
  const seconds = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);
  const ratio = timing.engineMs > 0 ? ` (${(timing.harnessMs / timing.engineMs).toFixed(timing.harnessMs / timing.engineMs >= 10 ? 0 : 1)}× the engine's)` : "";
  return `; ${timing.playersMs === undefined ? "time" : "players' time"}: engine ${seconds(timing.engineMs)}, harness ${seconds(timing.harnessMs)}${ratio}`;
}

function singleEngine(certification: Certification, paint: Paint): string {
  const table = newTable(["Check", "Level", "Outcome", "Expected", "Time"], paint);
  for (const check of certification.checks) {
    const outcome = paint(check.outcome, OUTCOME_TONE[check.outcome]) + (check.unexpected ? paint(" (unexpected)", "bad") : "");
    table.push([terminalText(`${check.id} ${check.title}`, 80), check.level, outcome, check.expected ?? "", `${check.durationMs.toFixed(1)} ms`]);
  }
  return table.toString();
}

/** The checks where engines differ, and one line for the rest. */
function matrix(result: ResultJson, paint: Paint): string {
  const model = collapseMatrix(complianceMatrix(result));
  const lines: string[] = [];
  if (model.rows.length > 0) {
    const table = newTable(["Check", "Level", ...model.engines.map((engine) => terminalText(engine.name, 24))], paint);
    for (const row of model.rows) table.push([terminalText(row.id, 60), row.level, ...row.cells.map((cell) => (cell ? paint(cell, CELL_TONE[cell]) : ""))]);
    lines.push("Where the engines differ:", table.toString());
  }
  if (model.summary !== null) lines.push(model.summary);
  if (model.rows.length > 0) lines.push(paint(`Legend: ${MATRIX_LEGEND.replace(/`/g, "")}.`, "dim"));
  return lines.join("\n");
}

/** Column widths that keep the at-a-glance table near a terminal's width: long cells wrap. */
const GLANCE_CELL_WIDTH = 14;

/** Words to wrap at; a number keeps its unit ("88.0 %", "197 ms", "10 / 100 turns" breaks only before "/"). */
function wrapWords(text: string): string[] {
  return text.split(" ").reduce<string[]>((words, word) => {
    if (words.length > 0 && /^(%|[nµm]?s|turns|×)\)?[,;]?$/.test(word)) words[words.length - 1] += ` ${word}`;
    else words.push(word);
    return words;
  }, []);
}

/** The text in lines of at most `width` characters where its words allow. */
function wrapCell(text: string, width: number): string {
  const lines: string[] = [];
  for (const word of wrapWords(text)) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines.join("\n");
}

/** The widest a glance table may be (report.txt is a file too, so not the terminal's own width): a wider one splits into panels. */
const GLANCE_MAX_WIDTH = 100;

/**
 * Column groups in order, each shown with the engine column, as few as fit `maxWidth` and as even in
 * width as the columns allow (a column wider than that gets a panel of its own).
 */
function panels(widths: readonly number[], maxWidth: number): number[][] {
  const columns = widths.length - 1;
  const width = (from: number, to: number) => 1 + (widths[0]! + 3) + widths.slice(from, to).reduce((sum, w) => sum + w + 3, 0);
  // best[i][k]: the narrowest widest table laying out columns 1..i in k panels, and where its last panel starts.
  const best: Array<Array<{ widest: number; start: number } | null>> = Array.from({ length: columns + 1 }, () => Array<null>(columns + 1).fill(null));
  best[0]![0] = { widest: 0, start: 0 };
  for (let end = 1; end <= columns; end++)
    for (let count = 1; count <= end; count++)
      for (let start = count - 1; start < end; start++) {
        const before = best[start]![count - 1];
        const own = width(start + 1, end + 1);
        if (before === null || before === undefined || (own > maxWidth && end - start > 1)) continue;
        const widest = Math.max(before.widest, own);
        const current = best[end]![count];
        if (current === null || current === undefined || widest < current.widest) best[end]![count] = { widest, start };
      }
  const count = best[columns]!.findIndex((entry, k) => k > 0 && entry !== null);
  const groups: number[][] = [];
  for (let end = columns, k = count; k > 0; k--) {
    const { start } = best[end]![k]!;
    groups.unshift(Array.from({ length: end - start }, (_, i) => start + 1 + i));
    end = start;
  }
  return groups;
}

function glance(result: ResultJson, paint: Paint): string[] {
  const model = atAGlance(result);
  if (model.columns.length === 0 || model.engines.length === 0) return [];
  const rows = model.engines.map((engine) => [terminalText(engine, 24), ...glanceRow(model, engine).map((text) => terminalText(text, 120))]);
  const headers = ["Engine", ...model.columns.map((column) => column.header)];
  const widths = headers.map((header, column) => Math.max(...wrapWords(header).map((word) => word.length), ...rows.map((row) => Math.min(GLANCE_CELL_WIDTH, row[column]!.length)), ...rows.flatMap((row) => wrapWords(row[column]!).map((word) => word.length))));
  const tables = panels(widths, GLANCE_MAX_WIDTH).map((group) => {
    const columns = [0, ...group];
    const table = newTable(columns.map((column) => wrapCell(headers[column]!, widths[column]!)), paint);
    for (const row of rows) table.push(columns.map((column) => { const text = row[column]!; return paint(wrapCell(text, widths[column]!), text.endsWith("(noisy)") ? "warn" : text.startsWith("NOT certified") ? "bad" : "plain"); }));
    return table.toString();
  });
  const notes = model.notes.map((note) => `  ${note.startsWith("(noisy)") ? paint(terminalText(note, 400), "warn") : terminalText(note, 400)}`);
  return [paint("At a glance", "bold"), tables.join("\n"), ...notes, ""];
}

function dataTable(bench: DataTable, paint: Paint): string[] {
  const table = newTable(bench.headers, paint);
  for (const row of bench.rows) table.push(row.map((cell) => (cell === "MISSED" ? paint(cell, "bad") : terminalText(cell, 60))));
  return [paint(terminalText(bench.title), "bold"), table.toString(), ...bench.notes.map((note) => `  ${note.startsWith("warning:") ? paint(terminalText(note, 200), "warn") : terminalText(note, 200)}`), ""];
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
  fileName: "report.txt",
  printable: true,
  render(result, options = {}) {
    const paint = paintWith(options.color === true);
    const out: string[] = [paint(options.title ?? "ctxbench", "bold"), ""];
    if (result.certifications.length + result.benchmarks.length > 0 && (result.certifications.length > 1 || result.benchmarks.length > 0)) out.push(...glance(result, paint));
    out.push(paint("Run", "bold"), ...runInfoPairs(result).map(([label, value]) => `  ${label}: ${terminalText(value, 200)}`), "");
    if (result.certifications.length > 0) {
      out.push(paint("Certification", "bold"), ...result.certifications.map((certification) => verdictLine(certification, paint)));
      out.push(result.certifications.length === 1 ? singleEngine(result.certifications[0]!, paint) : matrix(result, paint));
      const notes = problems(result, paint);
      if (notes.length > 0) out.push("Checks that did not pass:", ...notes);
      out.push("");
    }
    for (const bench of benchmarkTables(result)) out.push(...dataTable(bench, paint));
    const harness = harnessTables(result);
    if (harness.length > 0) out.push(paint("Harness", "bold"), `  ${HARNESS_NOTE}`, "", ...harness.flatMap((bench) => dataTable(bench, paint)));
    return `${out.join("\n").trimEnd()}\n`;
  },
};
