/**
 * The first thing every format shows: one row per engine with what a reader choosing one wants to
 * know, each cell with its unit and the id of the table that has its detail. The columns are the
 * verdict and then each registered suite's own (its `glance`), in the registry's order; host and
 * store figures are the harness's and no suite gives them a column.
 */
import { benchSuites } from "../harness/bench/registry.ts";
import type { Certification, ResultJson } from "../harness/result/index.ts";

export interface GlanceCell {
  text: string;
  /** Why the figure cannot be trusted (it is shown flagged, never as a plain figure); null when it can. */
  noisy: string | null;
}

export interface GlanceColumn {
  id: string;
  header: string;
  /** The id of the section or table with this column's detail (the HTML report links to it). */
  detail: string;
  /** What the column measures, when its header cannot say it all (a note under the table). */
  note?: string;
  /** By engine name; an engine absent here was not measured by this column's suite. */
  cells: Map<string, GlanceCell>;
}

export interface AtAGlance {
  engines: string[];
  columns: GlanceColumn[];
  /** Sentences under the table: what columns measure, how, and why a flagged cell was flagged. */
  notes: string[];
}

/** The cell of an engine a column has no figure for. */
export const NOT_MEASURED = "–";

function certificationCell(certification: Certification): GlanceCell {
  const { summary } = certification;
  const parts = [`${summary.pass}/${summary.total} pass`, summary.skipped ? `${summary.skipped} N/A` : "", summary.unexpected ? `${summary.unexpected} unexpected` : ""].filter(Boolean);
  return { text: `${certification.verdict === "certified" ? "certified" : "NOT certified"}: ${parts.join(", ")}`, noisy: null };
}

function certificationColumn(result: ResultJson): GlanceColumn[] {
  if (result.certifications.length === 0) return [];
  return [{ id: "certification", header: "Certification", detail: "compliance", cells: new Map(result.certifications.map((c) => [c.engine.name, certificationCell(c)])) }];
}

/**
 * Each suite's columns, as its file describes them, in the registry's order whatever order the
 * suites ran or were merged in. The HTML report's table ids are `table-<id>`.
 */
function suiteColumns(result: ResultJson): GlanceColumn[] {
  return benchSuites().flatMap((definition) =>
    result.benchmarks
      .filter((suite) => suite.suite === definition.name)
      .flatMap((suite) => definition.glance?.(suite) ?? [])
      .map((column) => ({
        id: column.id,
        header: column.header,
        detail: `table-${column.table}`,
        ...(column.note === undefined ? {} : { note: column.note }),
        cells: new Map(column.cells.map(({ engine, text, noisy }) => [engine, { text, noisy }])),
      })),
  );
}

/** Engines in the order the run names them, then any a suite measured that the run info does not list. */
function enginesOf(result: ResultJson, columns: GlanceColumn[]): string[] {
  const names = new Set<string>([...result.certifications.map((c) => c.engine.name), ...result.runInfo.engines.map((e) => e.name)]);
  for (const column of columns) for (const name of column.cells.keys()) names.add(name);
  return [...names];
}

/** How the timed figures were taken, and on what: a reader judges a figure by it. */
function howMeasured(result: ResultJson): string {
  const { cpu, cores, node, os } = result.runInfo;
  return `Timed figures: engines measured interleaved (round after round, order rotated) in one process on ${cpu} (${cores} cores), ${os}, Node ${node}; medians with 95 % intervals; a fixed calibration loop timed alongside says how noisy the machine was.`;
}

export function atAGlance(result: ResultJson): AtAGlance {
  const columns = [...certificationColumn(result), ...suiteColumns(result)].filter((column) => column.cells.size > 0);
  const engines = enginesOf(result, columns);
  const reasons = new Map<string, string[]>();
  for (const column of columns)
    for (const [engine, { noisy }] of column.cells) if (noisy !== null) reasons.set(noisy, [...(reasons.get(noisy) ?? []), `${engine} (${column.header})`]);
  const timed = result.benchmarks.some((suite) => suite.noise !== null);
  const notes = [
    ...columns.flatMap((column) => (column.note === undefined ? [] : [column.note])),
    ...(timed ? [howMeasured(result)] : []),
    ...[...reasons].map(([reason, where]) => `(noisy) ${where.join(", ")}: ${reason} — noisy, rerun on a quiet machine; not counted as a goal met.`),
  ];
  return { engines, columns, notes };
}

/** An engine's row as cell texts, flagged cells marked, "–" where a column has no figure for it. */
export function glanceRow(glance: AtAGlance, engine: string): string[] {
  return glance.columns.map((column) => {
    const found = column.cells.get(engine);
    if (found === undefined) return NOT_MEASURED;
    return found.noisy === null ? found.text : `${found.text} (noisy)`;
  });
}
