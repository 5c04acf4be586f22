/** GitHub-flavoured Markdown: compliance matrix, failures with evidence, performance tables. */
import { complianceMatrix, MATRIX_LEGEND, noteworthyChecks } from "./matrix.ts";
import type { Reporter } from "./reporter.ts";
import type { CheckResult, ResultJson } from "./result.ts";
import { benchmarkTables, runInfoPairs, type Table } from "./tables.ts";

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

function matrixSection(result: ResultJson): string {
  const matrix = complianceMatrix(result);
  const headers = ["Check", "Level", ...matrix.engines.map((engine) => inlineText(`${engine.name} ${engine.version}`))];
  const rows = matrix.rows.map((row) => [`${inlineText(row.id)} ${inlineText(row.title)}`, row.level, ...row.cells]);
  const verdicts = result.certifications.map(
    (certification) =>
      `- **${inlineText(certification.engine.name)}**: ${certification.verdict} — ${certification.summary.pass}/${certification.summary.total} passed, ${certification.summary.unexpected} unexpected`,
  );
  return ["## Compliance", "", ...verdicts, "", table(headers, rows), "", `Legend: ${MATRIX_LEGEND}.`].join("\n");
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

function benchTable(bench: Table): string {
  return [
    `### ${inlineText(bench.title)}`,
    "",
    table(bench.headers, bench.rows.map((row) => row.map(inlineText)), (column) => column > 0),
    ...(bench.notes.length ? ["", ...bench.notes.map((note) => `- ${inlineText(note)}`)] : []),
  ].join("\n");
}

export const markdownReporter: Reporter = {
  format: "markdown",
  render(result, options = {}) {
    const sections = [
      `# ${inlineText(options.title ?? "ctxbench report")}`,
      table(["Run", ""], runInfoPairs(result).map(([label, value]) => [label, inlineText(value)])),
    ];
    if (result.certifications.length > 0) sections.push(matrixSection(result));
    const details = detailsSection(result);
    if (details) sections.push(details);
    const tables = benchmarkTables(result);
    if (tables.length > 0) sections.push(["## Performance", "", ...tables.map(benchTable).flatMap((text) => [text, ""])].join("\n").trimEnd());
    return `${sections.join("\n\n")}\n`;
  },
};
