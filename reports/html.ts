/**
 * One self-contained HTML file: inline CSS, inline SVG charts, no script, no external resource
 * (a Content-Security-Policy forbids them too). Every string from the result is escaped.
 */
import { escapeHtml } from "./html-escape.ts";
import { atAGlance, NOT_MEASURED } from "./at-a-glance.ts";
import { collapseMatrix, complianceMatrix, MATRIX_LEGEND, noteworthyChecks, type MatrixRow } from "./matrix.ts";
import { findBenchSuite } from "../harness/bench/registry.ts";
import type { Chart } from "../harness/bench/suite.ts";
import { NUMBER_FORMATS, percent } from "../harness/util/format.ts";
import type { Reporter } from "./reporter.ts";
import { RERUN_ADVICE, type Certification, type CheckResult, type ResultJson, type RunNoise } from "../harness/result/index.ts";
import { barChart, lineChart, PALETTE } from "./svg-charts.ts";
import { benchmarkTables, HARNESS_NOTE, harnessTables, runInfoPairs, type Table } from "./tables.ts";

const STYLE = `
:root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1b1f24; background: #fff; }
body { margin: 0 auto; max-width: 1100px; padding: 24px; line-height: 1.45; }
h1 { margin: 0 0 8px; font-size: 1.6rem; } h2 { margin-top: 36px; border-bottom: 1px solid #d0d7de; padding-bottom: 4px; } h3 { margin-bottom: 6px; }
dl.run { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; font-size: .9rem; margin: 0; }
dl.run dt { color: #57606a; } dl.run dd { margin: 0; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; overflow-wrap: anywhere; }
.cards { display: flex; flex-wrap: wrap; gap: 12px; }
.card { border: 1px solid #d0d7de; border-radius: 8px; padding: 10px 14px; min-width: 200px; }
.card .verdict { font-weight: 700; } .certified { color: #116329; } .not-certified { color: #a40e26; }
table { border-collapse: collapse; margin: 8px 0; font-size: .88rem; }
th, td { border: 1px solid #d0d7de; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f6f8fa; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.cell { text-align: center; font-weight: 700; width: 4.5em; }
td.pass { background: #dafbe1; color: #116329; } td.fail { background: #ffebe9; color: #a40e26; } td.na { background: #f6f8fa; color: #57606a; }
.legend, .note { color: #57606a; font-size: .85rem; } .warning { color: #9a6700; }
figure { margin: 16px 0; } figcaption { font-weight: 600; margin-bottom: 4px; }
svg.chart { max-width: 100%; height: auto; font-size: 11px; }
svg .plot { fill: #fbfcfd; stroke: #d0d7de; } svg .grid { stroke: #eaeef2; } svg .tick, svg .legend { fill: #424a53; } svg .axis { fill: #1b1f24; font-weight: 600; }
.check { border: 1px solid #d0d7de; border-radius: 8px; padding: 8px 14px; margin: 10px 0; }
.tag { display: inline-block; border-radius: 10px; padding: 0 8px; font-size: .8rem; background: #eaeef2; margin-left: 6px; }
.tag.unexpected { background: #ffebe9; color: #a40e26; }
caption { text-align: left; font-weight: 600; padding: 4px 0; }
table.glance td a { color: inherit; text-decoration: none; } table.glance td a:hover, table.glance td a:focus { text-decoration: underline; }
table.glance th a { color: #0550ae; } table.glance td.noisy { background: #fff8c5; } table.glance td.bad { color: #a40e26; font-weight: 600; }
td.missing { color: #57606a; }
.scroll { overflow-x: auto; } table.glance { font-size: .82rem; }
.harness { border-left: 4px solid #d0d7de; padding-left: 12px; }
details > summary { cursor: pointer; color: #0550ae; }
@media print { body { max-width: none; padding: 0; font-size: 10pt; } .scroll { overflow: visible; } pre { max-height: none; } section, figure, table { break-inside: avoid; } a { color: inherit; text-decoration: none; } }
pre { background: #f6f8fa; padding: 10px; overflow: auto; max-height: 320px; white-space: pre-wrap; overflow-wrap: anywhere; font-size: .8rem; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
`;

const CELL_CLASS: Record<string, string> = { "+": "pass", "-": "fail", "N/A": "na", "": "unknown" };

const e = escapeHtml;

function runInfo(result: ResultJson): string {
  return `<h2 id="run">Run</h2><dl class="run">${runInfoPairs(result).map(([label, value]) => `<dt>${e(label)}</dt><dd>${e(value)}</dd>`).join("")}</dl>`;
}

function verdictCards(certifications: Certification[]): string {
  return `<div class="cards">${certifications
    .map(
      (certification) =>
        `<div class="card"><div><strong>${e(certification.engine.name)}</strong> ${e(certification.engine.version)}</div><div class="verdict ${certification.verdict}">${e(certification.verdict)}</div><div class="note">${certification.summary.pass}/${certification.summary.total} passed · ${certification.summary.unexpected} unexpected</div></div>`,
    )
    .join("")}</div>`;
}

function matrixRows(rows: readonly MatrixRow[]): string {
  return rows
    .map(
      (row) =>
        `<tr><th scope="row"><code>${e(row.id)}</code> ${e(row.title)}</th><td>${row.level}</td>${row.cells
          .map((cell, column) => `<td class="cell ${CELL_CLASS[cell]}" title="${e(row.checks[column]?.outcome ?? "not run")}">${e(cell)}</td>`)
          .join("")}</tr>`,
    )
    .join("");
}

/** The checks where engines differ, a line for the rest, and every check folded away (open when printed). */
function matrixTable(result: ResultJson): string {
  const full = complianceMatrix(result);
  const head = `<tr><th scope="col">Check</th><th scope="col">Level</th>${full.engines.map((engine) => `<th scope="col">${e(engine.name)}</th>`).join("")}</tr>`;
  const legend = `<p class="legend">Legend: ${e(MATRIX_LEGEND.replace(/`/g, ""))}.</p>`;
  if (result.certifications.length === 1) return `<table class="matrix"><caption>Every check</caption>${head}${matrixRows(full.rows)}</table>${legend}`;
  const collapsed = collapseMatrix(full);
  const differing = collapsed.rows.length > 0 ? `<table class="matrix differing"><caption>Checks where the engines differ</caption>${head}${matrixRows(collapsed.rows)}</table>` : "";
  const summary = collapsed.summary === null ? "" : `<p class="uniform">${e(collapsed.summary)}</p>`;
  const everything = collapsed.summary === null ? "" : `<details><summary>Every check (${full.rows.length})</summary><table class="matrix full"><caption>Every check</caption>${head}${matrixRows(full.rows)}</table></details>`;
  return `${differing}${summary}${everything}${legend}`;
}

/** One row per engine; every cell links to the table with its detail. */
function glanceTable(result: ResultJson): string | null {
  const glance = atAGlance(result);
  if (glance.columns.length === 0 || glance.engines.length === 0) return null;
  const head = `<tr><th scope="col">Engine</th>${glance.columns.map((column) => `<th scope="col"><a href="#${e(column.detail)}">${e(column.header)}</a></th>`).join("")}</tr>`;
  const rows = glance.engines.map((engine) => {
    const cells = glance.columns.map((column) => {
      const found = column.cells.get(engine);
      if (found === undefined) return `<td class="missing" title="not measured">${NOT_MEASURED}</td>`;
      const flag = found.noisy === null ? "" : ' <span class="tag noisy">noisy</span>';
      const classes = [found.noisy === null ? "" : "noisy", found.text.startsWith("NOT certified") ? "bad" : ""].filter(Boolean).join(" ");
      return `<td${classes ? ` class="${classes}"` : ""}${found.noisy === null ? "" : ` title="${e(found.noisy)}"`}><a href="#${e(column.detail)}">${e(found.text)}</a>${flag}</td>`;
    });
    return `<tr><th scope="row">${e(engine)}</th>${cells.join("")}</tr>`;
  });
  const notes = glance.notes.map((note) => `<li class="${note.startsWith("(noisy)") ? "warning" : "note"}">${e(note)}</li>`);
  return `<div class="scroll"><table class="glance"><caption>One row per engine; each figure links to its table</caption>${head}${rows.join("")}</table></div>${notes.length ? `<ul>${notes.join("")}</ul>` : ""}`;
}

function checkDetail(engine: string, check: CheckResult): string {
  const tags = [
    `<span class="tag">${e(check.outcome)}</span>`,
    `<span class="tag">${e(check.level)}</span>`,
    check.unexpected ? `<span class="tag unexpected">unexpected</span>` : check.expected ? `<span class="tag">expected ${e(check.expected)}</span>` : "",
  ].join("");
  const repro = check.repro ? `<p>Replay: <code>${e(check.repro.command)}</code> (scenario ${e(check.repro.scenario)}, seed ${check.repro.seed})</p>` : "";
  return `<div class="check"><h3>${e(engine)} · <code>${e(check.id)}</code> ${e(check.title)}${tags}</h3><p class="message">${e(check.message)}</p>${repro}<details open><summary>Evidence</summary><pre class="evidence">${e(JSON.stringify(check.evidence, null, 2))}</pre></details></div>`;
}

function tableHtml(bench: Table): string {
  const head = `<tr>${bench.headers.map((header) => `<th scope="col">${e(header)}</th>`).join("")}</tr>`;
  const rows = bench.rows.map((row) => `<tr>${row.map((cell, column) => `<td${column > 0 ? ' class="num"' : ""}>${e(cell)}</td>`).join("")}</tr>`);
  const notes = bench.notes.map((note) => `<li class="${note.startsWith("warning:") ? "warning" : "note"}">${e(note)}</li>`);
  return `<h3 id="table-${e(bench.id)}">${e(bench.title)}</h3><table class="bench" aria-labelledby="table-${e(bench.id)}">${head}${rows.join("")}</table>${notes.length ? `<ul>${notes.join("")}</ul>` : ""}`;
}

function figure(caption: string, svg: string, note: string | null = null): string {
  return `<figure><figcaption>${e(caption)}</figcaption>${svg}${note === null ? "" : `<p class="note warning">${e(note)}</p>`}</figure>`;
}

/** Under a chart of timed figures from a noisy run: why its points may jump. */
function noiseCaption(noise: RunNoise | null): string | null {
  if (noise === null || !noise.noisy) return null;
  return `Measured on a noisy machine: identical calibration work varied by ${percent(noise.calibrationSpread)} (limit ${percent(noise.limit)}), so points can jump for reasons that are not the engines'; ${RERUN_ADVICE}.`;
}

/** Baselines (no engine, inheriting, select-null) in greys; each engine keeps one colour in every chart. */
const BASELINE_GREYS = ["#57606a", "#8c959f", "#afb8c1"];

function engineColors(result: ResultJson): (engine: string | null, baselineIndex?: number) => string {
  const order = new Map<string, number>();
  const remember = (name: string) => void (order.has(name) || order.set(name, order.size));
  for (const engine of result.runInfo.engines) remember(engine.name);
  for (const certification of result.certifications) remember(certification.engine.name);
  return (engine, baselineIndex = 0) => {
    if (engine === null || !order.has(engine)) return BASELINE_GREYS[baselineIndex % BASELINE_GREYS.length]!;
    return PALETTE[order.get(engine)! % PALETTE.length]!;
  };
}

/** Every suite's charts, drawn from the data its suite gives; each engine keeps one colour in every chart. */
function charts(result: ResultJson): string[] {
  const colorOf = engineColors(result);
  return result.benchmarks.flatMap((suite) => (findBenchSuite(suite.suite)?.charts(suite) ?? []).map((chart) => figure(chart.caption, drawChart(chart, colorOf), noiseCaption(suite.noise))));
}

function drawChart(chart: Chart, colorOf: ReturnType<typeof engineColors>): string {
  if (chart.kind === "line") {
    return lineChart({
      id: chart.id,
      title: chart.title,
      xLabel: chart.xLabel,
      yLabel: chart.yLabel,
      xScale: chart.xScale,
      yScale: chart.yScale,
      ...(chart.yDomain ? { yDomain: chart.yDomain } : {}),
      formatX: NUMBER_FORMATS[chart.xFormat],
      formatY: NUMBER_FORMATS[chart.yFormat],
      ...(chart.markers ? { markers: true } : {}),
      series: chart.series.map((series) => ({ name: series.engine, color: colorOf(series.engine), points: series.points })),
    });
  }
  return barChart({
    id: chart.id,
    title: chart.title,
    valueLabel: chart.valueLabel,
    formatValue: NUMBER_FORMATS[chart.valueFormat],
    ...(chart.reference ? { reference: chart.reference } : {}),
    bars: chart.bars.map((bar, index) => ({
      color: colorOf(bar.engine, index),
      label: bar.label,
      value: bar.value,
      ...(bar.low !== undefined ? { low: bar.low } : {}),
      ...(bar.high !== undefined ? { high: bar.high } : {}),
    })),
  });
}

export const htmlReporter: Reporter = {
  format: "html",
  fileName: "report.html",
  printable: false,
  render(result, options = {}) {
    const title = options.title ?? "ctxbench report";
    const body: string[] = [`<header><h1>${e(title)}</h1></header>`];
    const glance = result.certifications.length > 1 || result.benchmarks.length > 0 ? glanceTable(result) : null;
    if (glance !== null) body.push(`<section id="at-a-glance"><h2>At a glance</h2>${glance}</section>`);
    body.push(`<section id="run-info">${runInfo(result)}</section>`);
    if (result.certifications.length > 0) {
      body.push(`<section id="compliance"><h2>Compliance</h2>${verdictCards(result.certifications)}${matrixTable(result)}</section>`);
    }
    const figures = charts(result);
    if (figures.length > 0) body.push(`<section id="charts"><h2>Charts</h2>${figures.join("\n")}</section>`);
    const tables = benchmarkTables(result);
    if (tables.length > 0) body.push(`<section id="performance"><h2>Performance</h2>${tables.map(tableHtml).join("\n")}</section>`);
    const harness = harnessTables(result);
    if (harness.length > 0) body.push(`<section id="harness" class="harness"><h2>Harness</h2><p class="note">${e(HARNESS_NOTE)}</p>${harness.map(tableHtml).join("\n")}</section>`);
    const details = result.certifications.flatMap((certification) => noteworthyChecks(certification.checks).map((check) => checkDetail(certification.engine.name, check)));
    if (details.length > 0) body.push(`<section id="details"><h2>Checks that did not pass</h2>${details.join("\n")}</section>`);
    return [
      "<!doctype html>",
      '<html lang="en">',
      "<head>",
      '<meta charset="utf-8">',
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">`,
      '<meta name="viewport" content="width=device-width, initial-scale=1">',
      `<title>${e(title)}</title>`,
      `<style>${STYLE}</style>`,
      "</head>",
      "<body>",
      ...body,
      "</body>",
      "</html>",
      "",
    ].join("\n");
  },
};
