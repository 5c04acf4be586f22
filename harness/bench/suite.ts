/**
 * What a benchmark suite is: one file that names the suite, runs it, describes its result as a
 * schema fragment, and says how it is shown (tables and charts as data, rendered by every report
 * format) and remembered (baseline figures). Add it to registry.ts and every output knows it.
 */
import type { BaselineFigure } from "./baseline.ts";
import type { EngineFactory } from "./engine-factory.ts";
import { array, boolean, integer, literal, named, nullable, number, object, string, type Infer, type ObjectSchema, type Problem, type Properties, type Schema } from "../util/schema.ts";
import { goalSchema, type Goal } from "./goals.ts";
import type { RunNoise } from "./noise.ts";
import type { NumberFormat } from "../util/format.ts";

export { goalBound, goalSchema, type Goal } from "./goals.ts";

const noiseSchema = object({
  calibrationSpread: number({ minimum: 0 }),
  limit: number({ minimum: 0 }),
  samples: integer({ minimum: 0 }),
  noisy: boolean(),
});

/** A timed figure with its 95 % interval (stats.ts's Estimate). */
export const estimateSchema = (minimum?: number) => {
  const value = () => (minimum === undefined ? number() : number({ minimum }));
  return object({ value: value(), low: value(), high: value() });
};

const suiteBase = {
  warnings: array(string()),
  goals: array(goalSchema),
  /** How steady the machine was while the suite measured; null for a suite that times nothing. */
  noise: nullable(noiseSchema),
  durationMs: number({ minimum: 0 }),
};

/** The properties of a suite's result shape: `suite`, the suite's own, then the common ones. */
export type SuiteProperties<N extends string, P extends Properties> = { readonly suite: Schema<N> } & P & typeof suiteBase;

// The type is named, not inferred: inferred, the declaration file spells the mapped type out in a
// form a consumer's tsc (skipLibCheck false) rejects (TS2536).
/** The result shape of a suite: `suite: name`, its own properties, then warnings, goals, noise and duration. */
export function suiteShape<const N extends string, const P extends Properties>(name: N, title: string, properties: P): ObjectSchema<SuiteProperties<N, P>> {
  return named(`${title}Suite`, object<SuiteProperties<N, P>>({ suite: literal(name), ...properties, ...suiteBase }));
}

/** What every suite result carries. */
export interface SuiteResultBase {
  suite: string;
  warnings: string[];
  goals: Goal[];
  noise: RunNoise | null;
  durationMs: number;
}

/** An engine a suite may create fresh instances of. */
export interface BenchEngine extends EngineFactory {
  version: string | null;
}

export interface SuiteContext {
  engines: BenchEngine[];
  seed: number;
  /** A scratch directory the suite may write into; removed by the caller. */
  scratchDir: string;
  /** Smaller inputs and fewer samples, for a quick look (the main job on a busy machine, the e2e tests). */
  quick: boolean;
}

/** A table as data: every report format draws it (strings only, already formatted). */
export interface Table {
  id: string;
  title: string;
  headers: string[];
  rows: string[][];
  /** Sentences under the table: context, fitted exponents, warnings (starting "warning:"). */
  notes: string[];
  /** The harness's own figures (the store, the host's share of a pass), the same whichever engine: shown in the harness section, not among the engines'. */
  harness?: true;
}

/**
 * One column of the report's at-a-glance table: a figure per engine, as text with its unit, and
 * the table (by id) with its detail. Only engines' figures: the harness's never appear there.
 */
export interface GlanceColumn {
  id: string;
  header: string;
  /** The id of this suite's table with the detail (the HTML report links each cell to it). */
  table: string;
  /** What the column measures, when its header cannot say it all (a note under the table). */
  note?: string;
  /** `noisy`: why the figure cannot be trusted (shown flagged, never as a plain figure); null when it can. */
  cells: { engine: string; text: string; noisy: string | null }[];
}

/** A line per engine (the report gives each engine one colour in every chart). */
export interface LineChart {
  kind: "line";
  id: string;
  caption: string;
  title: string;
  xLabel: string;
  yLabel: string;
  xScale: "linear" | "log";
  yScale: "linear" | "log";
  yDomain?: [number, number];
  xFormat: NumberFormat;
  yFormat: NumberFormat;
  markers?: boolean;
  series: { engine: string; points: [number, number][] }[];
}

/** Bars with optional whiskers; a bar of no engine (a baseline) is drawn grey. */
export interface BarChart {
  kind: "bar";
  id: string;
  caption: string;
  title: string;
  valueLabel: string;
  valueFormat: NumberFormat;
  reference?: { value: number; label: string };
  bars: { label: string; engine: string | null; value: number; low?: number; high?: number }[];
}

export type Chart = LineChart | BarChart;

export interface BenchSuite<R extends SuiteResultBase = SuiteResultBase> {
  name: R["suite"];
  /** One line for `--help`. */
  description: string;
  shape: Schema<R> & { properties: Properties };
  run(context: SuiteContext): Promise<R>;
  /** Its tables (the goals table is common to every suite and drawn by the reports). */
  tables(result: R): Table[];
  charts(result: R): Chart[];
  /** Its columns of the at-a-glance table, in order (absent: it has none, like the store's harness figures). */
  glance?(result: R): GlanceColumn[];
  /** The figures a baseline remembers and a later run is gated on, keyed `<suite>/…`. */
  figures(result: R): Record<string, BaselineFigure>;
  /** False for a suite that drives no engine (the store): it runs once, in a player without one. Default true. */
  drivesEngines?: boolean;
  /**
   * Within one run, each engine is measured in its own player: the suite-specific fields of the
   * combined result from those parts (combine.ts adds warnings, goals, noise and duration).
   * Absent: each part's `engines` rows side by side, when the suite has them.
   */
  combineParts?(parts: readonly R[]): Partial<R>;
  /**
   * Joins this suite's results from two result files (one engine each, say); a string says why
   * they cannot be joined. Absent: the suite's figures are only comparable within one run.
   */
  join?(a: R, b: R): R | string;
  /** What the shape alone cannot say about a result of this suite: the first problem, at `path` or under it. */
  consistency?(result: R, path: string): Problem | null;
}

/** Declares a suite, with its result type taken from its shape. */
export function defineSuite<S extends ObjectSchema<any>>(suite: { shape: S } & Omit<BenchSuite<Infer<S> & SuiteResultBase>, "shape">): BenchSuite<Infer<S> & SuiteResultBase> {
  return suite as unknown as BenchSuite<Infer<S> & SuiteResultBase>;
}

export { flagged, noiseNote, NOISY_MARK, unreliableNotes, warningNotes } from "./notes.ts";

/**
 * Joins two results of a suite measured per engine: the engines side by side, warnings and goals
 * together, durations added. An engine in both is refused.
 */
export function joinPerEngine<R extends SuiteResultBase & { engines: { engine: string }[] }>(a: R, b: R, more: Partial<R> = {}): R | string {
  const names = new Set(a.engines.map((engine) => engine.engine));
  const twice = b.engines.find((engine) => names.has(engine.engine));
  if (twice) return `engine "${twice.engine}" appears twice in the "${a.suite}" suite`;
  return { ...a, engines: [...a.engines, ...b.engines], warnings: [...a.warnings, ...b.warnings], goals: [...a.goals, ...b.goals], durationMs: a.durationMs + b.durationMs, ...more };
}
