import type { BenchSuiteResult, OverheadSuite, ThroughputSuite } from "../../reports/result.ts";
import type { Goal } from "./goals.ts";
import type { RunNoise } from "./noise.ts";

/**
 * One suite's result from its per-engine runs (each engine is measured in its own player, beside
 * the suite's own reference figures measured there too): engine rows and engine goals side by
 * side; the harness's own figures and goals (no engine) from the first part; warnings from all;
 * the noise of the noisiest part. Parts must be of one suite.
 */
export function combineSuiteResults(parts: readonly BenchSuiteResult[]): BenchSuiteResult {
  const [first, ...rest] = parts;
  if (first === undefined) throw new Error("no part to combine");
  if (rest.some((part) => part.suite !== first.suite)) throw new Error(`parts of different suites: ${parts.map((part) => part.suite).join(", ")}`);
  if (rest.length === 0) return first;
  const shared = {
    warnings: [...new Set(parts.flatMap((part) => part.warnings))],
    durationMs: parts.reduce((sum, part) => sum + part.durationMs, 0),
    goals: combinedGoals(parts.map((part) => part.goals)),
    noise: noisiest(parts.map((part) => part.noise)),
  };
  switch (first.suite) {
    case "overhead": {
      const all = parts as OverheadSuite[];
      return {
        ...first,
        ...shared,
        requestsByteIdentical: all.every((part) => part.requestsByteIdentical),
        variants: [...first.variants.filter((variant) => variant.engine === null), ...all.flatMap((part) => part.variants.filter((variant) => variant.engine !== null))],
      };
    }
    case "throughput":
      return { ...first, ...shared, engines: (parts as ThroughputSuite[]).flatMap((part) => part.engines) };
    case "cache":
    case "quality": {
      const engines: unknown[] = parts.flatMap((part): unknown[] => ("engines" in part ? part.engines : []));
      return { ...first, ...shared, engines } as BenchSuiteResult;
    }
    case "store":
      return { ...first, ...shared };
  }
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

/** Suites that drive no engine: run once, in a player without one. */
export const ENGINE_FREE_SUITES: ReadonlySet<string> = new Set(["store"]);
