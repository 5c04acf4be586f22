import { findBenchSuite, type BenchSuiteResult } from "./registry.ts";
import type { Goal } from "./goals.ts";
import type { RunNoise } from "./noise.ts";
import type { BenchSuite, SuiteResultBase } from "./suite.ts";

/**
 * One suite's result from its per-engine runs (each engine is measured in its own player, beside
 * the suite's own reference figures measured there too): the suite's own fields as its file says
 * (`combineParts`, else the engine rows side by side); the harness's goals (no engine) from the
 * first part and every engine's; warnings from all; the noise of the noisiest part. Parts must be
 * of one suite.
 */
export function combineSuiteResults(parts: readonly BenchSuiteResult[]): BenchSuiteResult {
  const [first, ...rest] = parts;
  if (first === undefined) throw new Error("no part to combine");
  if (rest.some((part) => part.suite !== first.suite)) throw new Error(`parts of different suites: ${parts.map((part) => part.suite).join(", ")}`);
  if (rest.length === 0) return first;
  const suite = findBenchSuite(first.suite) as BenchSuite<SuiteResultBase> | undefined;
  const own = suite?.combineParts !== undefined ? suite.combineParts(parts) : engineRows(parts);
  return {
    ...first,
    ...own,
    warnings: [...new Set(parts.flatMap((part) => part.warnings))],
    durationMs: parts.reduce((sum, part) => sum + part.durationMs, 0),
    goals: combinedGoals(parts.map((part) => part.goals)),
    noise: noisiest(parts.map((part) => part.noise)),
  } as BenchSuiteResult;
}

/** The default: each part's `engines` rows side by side, for a suite that has them. */
function engineRows(parts: readonly SuiteResultBase[]): Record<string, unknown> {
  const lists = parts.map((part) => (part as { engines?: unknown }).engines);
  return lists.every(Array.isArray) ? { engines: lists.flat() } : {};
}

/** The harness's goals (no engine) once, from the first part; every engine's goals. */
function combinedGoals(lists: ReadonlyArray<readonly Goal[]>): Goal[] {
  const harness = (lists[0] ?? []).filter((goal) => goal.engine === null);
  const engines = lists.flatMap((goals) => goals.filter((goal) => goal.engine !== null));
  return [...harness, ...new Map(engines.map((goal) => [goal.id, goal])).values()];
}

function noisiest(noises: ReadonlyArray<RunNoise | null>): RunNoise | null {
  let worst: RunNoise | null = null;
  for (const noise of noises) if (noise !== null && (worst === null || noise.calibrationSpread > worst.calibrationSpread)) worst = noise;
  return worst;
}

/** Whether a suite drives engines (one player per engine) or none (once, in a player without one). */
export function drivesEngines(name: string): boolean {
  return findBenchSuite(name)?.drivesEngines !== false;
}
