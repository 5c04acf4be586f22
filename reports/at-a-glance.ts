/**
 * The first thing every format shows: one row per engine with what a reader choosing one wants to
 * know, each cell with its unit and the id of the table that has its detail. Host and store
 * figures are the harness's and never appear here.
 */
import { recallViaToolsText } from "../harness/bench/suites/quality.suite.ts";
import type { BenchSuiteResult, Certification, ResultJson } from "../harness/result/index.ts";
import { addedNanoseconds, percent, sig, times, withInterval, withThousands } from "../harness/util/format.ts";

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
  /** Sentences under the table: what a flagged cell means, and why each was flagged. */
  notes: string[];
}

/** The cell of an engine a column has no figure for. */
export const NOT_MEASURED = "–";

/** A figure whose baseline costs less than this is read as the time added, not as a ratio. */
const ABSOLUTE_BELOW_NS = 100;
/** The transcript size the throughput column quotes. */
const GLANCE_MESSAGES = 10_000;
const GLANCE_LABEL = "10k";

/** Whatever order the suites ran in: what it is, what it keeps, what it costs. */
const COLUMN_ORDER = ["certification", "implements", "recall-active", "recall-tools", "tokens-removed", "cache-hit", "prefix-breaks", "overhead", "throughput", "compression", "scaling"];

const cell = (text: string, noisy: string | null = null): GlanceCell => ({ text, noisy });

function certificationCell(certification: Certification): GlanceCell {
  const { summary } = certification;
  const parts = [`${summary.pass}/${summary.total} pass`, summary.skipped ? `${summary.skipped} N/A` : "", summary.unexpected ? `${summary.unexpected} unexpected` : ""].filter(Boolean);
  return cell(`${certification.verdict === "certified" ? "certified" : "NOT certified"}: ${parts.join(", ")}`);
}

function certificationColumn(result: ResultJson): GlanceColumn[] {
  if (result.certifications.length === 0) return [];
  return [{ id: "certification", header: "Certification", detail: "compliance", cells: new Map(result.certifications.map((c) => [c.engine.name, certificationCell(c)])) }];
}

function suiteColumns(suite: BenchSuiteResult): GlanceColumn[] {
  switch (suite.suite) {
    case "quality":
      return [
        { id: "recall-active", header: "Recall in context", detail: "table-quality", cells: new Map(suite.engines.map((e) => [e.engine, cell(percent(e.recallActive))])) },
        {
          id: "recall-tools",
          header: "Recall via tools",
          detail: "table-quality",
          cells: new Map(
            suite.engines.map((e) => [
              e.engine,
              cell(e.recallViaTools === null && e.recallViaToolsNotMeasured !== null && e.recallViaToolsNotMeasured !== "no tools" ? `not measured: ${e.recallViaToolsNotMeasured}` : recallViaToolsText(e)),
            ]),
          ),
        },
        { id: "tokens-removed", header: "Tokens removed", detail: "table-quality", cells: new Map(suite.engines.map((e) => [e.engine, cell(percent(e.tokensRemovedRatio))])) },
      ];
    case "cache":
      return [
        {
          id: "cache-hit",
          header: "Cache-hit ratio (ceiling)",
          detail: "table-cache",
          note: "Cache-hit ratio: cached ÷ prompt tokens over the cache scenarios; the ceiling is the same scenarios with no selection and no compaction.",
          cells: new Map(suite.engines.map((e) => [e.engine, cell(`${percent(e.hitRatio)} (${percent(e.ceilingHitRatio)})`)])),
        },
        {
          id: "prefix-breaks",
          header: "Prefix breaks",
          detail: "table-cache",
          cells: new Map(suite.engines.map((e) => [e.engine, cell(`${sig(e.prefixBreaksPer100Turns)} / 100 turns`)])),
        },
      ];
    case "overhead": {
      const assembly = suite.variants.filter((variant) => variant.stage === "assembly");
      const base = assembly.find((variant) => variant.variant === "no-engine");
      const cells = new Map<string, GlanceCell>();
      for (const variant of assembly) {
        if (variant.engine === null || !variant.variant.startsWith("engine:") || variant.ratioToNoEngine === null) continue;
        const absolute = base !== undefined && base.medianNs.value < ABSOLUTE_BELOW_NS && variant.addedNs !== null;
        const text = absolute ? addedNanoseconds(variant.addedNs!) : withInterval(variant.ratioToNoEngine, "×");
        cells.set(variant.variant.slice("engine:".length), cell(text, variant.unreliable));
      }
      return [{ id: "overhead", header: `Assembly ÷ no engine (${withThousands(suite.messagesPerRequest)} msgs)`, detail: "table-overhead", note: "Assembly: the host building one request with the engine ÷ with no engine, interleaved in one process (95 % CI).", cells }];
    }
    case "throughput": {
      const pass = new Map<string, GlanceCell>();
      const compression = new Map<string, GlanceCell>();
      const exponent = new Map<string, GlanceCell>();
      for (const engine of suite.engines) {
        const point = [...engine.points].sort((a, b) => Math.abs(a.messages - GLANCE_MESSAGES) - Math.abs(b.messages - GLANCE_MESSAGES))[0];
        if (point !== undefined) {
          const at = Math.abs(point.messages - GLANCE_MESSAGES) <= GLANCE_MESSAGES / 100 ? "" : ` at ${withThousands(point.messages)} msgs`;
          pass.set(engine.engine, cell(`${withInterval(point.medianMs, "ms")}${at}`, point.unreliable));
          compression.set(engine.engine, cell(`${times(point.compressionRatio)}${at}`));
        }
        exponent.set(engine.engine, engine.fittedExponent === null ? cell("too few sizes") : cell(withInterval(engine.fittedExponent, "")));
      }
      return [
        { id: "throughput", header: `compress() at ${GLANCE_LABEL} msgs`, detail: "table-throughput", cells: pass },
        { id: "compression", header: `Compression at ${GLANCE_LABEL}`, detail: "table-throughput", note: "Compression: tokens in ÷ tokens out of one compress() pass.", cells: compression },
        { id: "scaling", header: "Scaling exponent", detail: "table-throughput", note: "Scaling exponent: k of compress() time ∝ messages^k, fitted over every size measured (1 = linear, 95 % CI).", cells: exponent },
      ];
    }
    default:
      return [];
  }
}

/** Engines in the order the run names them, then any a suite measured that the run info does not list. */
function enginesOf(result: ResultJson, columns: GlanceColumn[]): string[] {
  const names = new Set<string>([...result.certifications.map((c) => c.engine.name), ...result.runInfo.engines.map((e) => e.name)]);
  for (const column of columns) for (const name of column.cells.keys()) names.add(name);
  return [...names];
}

export function atAGlance(result: ResultJson): AtAGlance {
  const columns = [...certificationColumn(result), ...result.benchmarks.flatMap(suiteColumns)]
    .filter((column) => column.cells.size > 0)
    .sort((a, b) => COLUMN_ORDER.indexOf(a.id) - COLUMN_ORDER.indexOf(b.id));
  const engines = enginesOf(result, columns);
  const reasons = new Map<string, string[]>();
  for (const column of columns)
    for (const [engine, { noisy }] of column.cells) if (noisy !== null) reasons.set(noisy, [...(reasons.get(noisy) ?? []), `${engine} (${column.header})`]);
  const timed = result.benchmarks.some((suite) => suite.noise !== null);
  const notes = [...columns.flatMap((column) => (column.note === undefined ? [] : [column.note])), ...(timed ? [howMeasured(result)] : []), ...[...reasons].map(([reason, where]) => `(noisy) ${where.join(", ")}: ${reason} — noisy, rerun on a quiet machine; not counted as a goal met.`)];
  return { engines, columns, notes };
}

/** How the timed figures were taken, and on what: a reader judges a figure by it. */
function howMeasured(result: ResultJson): string {
  const { cpu, cores, node, os } = result.runInfo;
  return `Timed figures: engines measured interleaved (round after round, order rotated) in one process on ${cpu} (${cores} cores), ${os}, Node ${node}; medians with 95 % intervals; a fixed calibration loop timed alongside says how noisy the machine was.`;
}

/** An engine's row as cell texts, flagged cells marked, "–" where a column has no figure for it. */
export function glanceRow(glance: AtAGlance, engine: string): string[] {
  return glance.columns.map((column) => {
    const found = column.cells.get(engine);
    if (found === undefined) return NOT_MEASURED;
    return found.noisy === null ? found.text : `${found.text} (noisy)`;
  });
}
