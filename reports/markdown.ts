/** GitHub-flavoured Markdown: compliance matrix, failures with evidence, performance tables. */
import { atAGlance, glanceRow } from "./at-a-glance.ts";
import { collapseMatrix, complianceMatrix, MATRIX_LEGEND, noteworthyChecks } from "./matrix.ts";
import type { Reporter } from "./reporter.ts";
import type { CheckResult, ResultJson } from "../harness/result/index.ts";
import { benchmarkTables, HARNESS_NOTE, harnessTables, runInfoPairs, type Table } from "./tables.ts";

/** Evidence longer than this is cut, so a job summary stays far below GitHub's 1 MiB cap. */
const EVIDENCE_LIMIT = 2000;

/** Text shown literally in a table cell or a line: markup, pipes and newlines neutralised. */
export function inlineText(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/\|/g, "\\|")
    .replace(/([\\`*_[\]])/g, "\\$1")
    .replace(/[\r\n]+/g, " ")
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** A fenced block no content can close: the fence is longer than any backtick run inside. */
export function codeBlock(text: string, language = ""): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${text}\n${fence}`;
}

function table(headers: string[], rows: string[][], alignRight: (column: number) => boolean = () => false): string {
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [line(headers), line(headers.map((_, column) => (alignRight(column) ? "---:" : "---"))), ...rows.map(line)].join("\n");
}

/** The at-a-glance table: one row per engine, each cell linking to the section with its detail. */
function glanceSection(result: ResultJson): string | null {
  const glance = atAGlance(result);
  if (glance.columns.length === 0 || glance.engines.length === 0) return null;
  const headers = ["Engine", ...glance.columns.map((column) => `[${inlineText(column.header)}](#${column.detail})`)];
  const rows = glance.engines.map((engine) => [`**${inlineText(engine)}**`, ...glanceRow(glance, engine).map(inlineText)]);
  return ["## At a glance", "", table(headers, rows), ...(glance.notes.length ? ["", ...glance.notes.map((note) => `- ${inlineText(note)}`)] : [])].join("\n");
}

function matrixSection(result: ResultJson): string {
  const full = complianceMatrix(result);
  const matrix = result.certifications.length > 1 ? collapseMatrix(full) : { ...full, summary: null };
  const headers = ["Check", "Level", ...matrix.engines.map((engine) => inlineText(`${engine.name} ${engine.version}`))];
  const rows = (from: typeof full.rows) => from.map((row) => [`${inlineText(row.id)} ${inlineText(row.title)}`, row.level, ...row.cells]);
  const verdicts = result.certifications.map(
    (certification) =>
      `- **${inlineText(certification.engine.name)}**: ${certification.verdict} — ${certification.summary.pass}/${certification.summary.total} passed, ${certification.summary.unexpected} unexpected`,
  );
  const differing = matrix.rows.length === 0 ? [] : [...(result.certifications.length > 1 ? ["Where the engines differ:", ""] : []), table(headers, rows(matrix.rows)), ""];
  const rest = matrix.summary !== null ? [matrix.summary, ""] : [];
  const everything = matrix.summary !== null ? ["<details><summary>Every check</summary>", "", table(headers, rows(full.rows)), "", "</details>", ""] : [];
  return ['<a id="compliance"></a>', "", "## Compliance", "", ...verdicts, "", ...differing, ...rest, ...everything, `Legend: ${MATRIX_LEGEND}.`].join("\n");
}

function checkDetail(engine: string, check: CheckResult): string {
  const status = check.unexpected ? "unexpected" : check.expected ? `expected ${check.expected}` : "";
  const evidence = JSON.stringify(check.evidence, null, 2);
  const shown = evidence.length > EVIDENCE_LIMIT ? `${evidence.slice(0, EVIDENCE_LIMIT)}\n… (${evidence.length - EVIDENCE_LIMIT} more characters in the JSON result)` : evidence;
  return [
    `### ${inlineText(engine)} · ${inlineText(check.id)} · ${check.outcome}${status ? ` (${status})` : ""}`,
    "",
    inlineText(check.message),
    ...(check.repro ? ["", `Replay: \`${check.repro.command.replace(/`/g, "'")}\``] : []),
    "",
    "<details><summary>Evidence</summary>",
    "",
    codeBlock(shown, "json"),
    "",
    "</details>",
  ].join("\n");
}

function detailsSection(result: ResultJson): string | null {
  const details = result.certifications.flatMap((certification) =>
    noteworthyChecks(certification.checks).map((check) => checkDetail(certification.engine.name, check)),
  );
  return details.length === 0 ? null : ["## Checks that did not pass", "", ...details.flatMap((detail) => [detail, ""])].join("\n").trimEnd();
}

/** Each table has an anchor of its id, which the at-a-glance headers link to. */
function benchTable(bench: Table): string {
  return [
    `<a id="table-${inlineText(bench.id)}"></a>`,
    "",
    `### ${inlineText(bench.title)}`,
    "",
    table(bench.headers, bench.rows.map((row) => row.map(inlineText)), (column) => column > 0),
    ...(bench.notes.length ? ["", ...bench.notes.map((note) => `- ${inlineText(note)}`)] : []),
  ].join("\n");
}

export const markdownReporter: Reporter = {
  format: "markdown",
  fileName: "report.md",
  printable: true,
  render(result, options = {}) {
    const sections = [`# ${inlineText(options.title ?? "ctxbench report")}`];
    const glance = result.certifications.length > 1 || result.benchmarks.length > 0 ? glanceSection(result) : null;
    if (glance) sections.push(glance);
    sections.push(table(["Run", ""], runInfoPairs(result).map(([label, value]) => [label, inlineText(value)])));
    if (result.certifications.length > 0) sections.push(matrixSection(result));
    const details = detailsSection(result);
    if (details) sections.push(details);
    const tables = benchmarkTables(result);
    if (tables.length > 0) sections.push(["## Performance", "", ...tables.map(benchTable).flatMap((text) => [text, ""])].join("\n").trimEnd());
    const harness = harnessTables(result);
    if (harness.length > 0) sections.push(["## Harness", "", HARNESS_NOTE, "", ...harness.map(benchTable).flatMap((text) => [text, ""])].join("\n").trimEnd());
    return `${sections.join("\n\n")}\n`;
  },
};
