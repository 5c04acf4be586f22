/**
 * What `--suite` knows of the suites without loading one: the built-in suites' names, in
 * registry.ts's order, and the suites added at run time. The CLI builds its options from here, so a
 * refused command never loads the suites (and the host and store they import); a test holds
 * BUILT_IN_SUITE_NAMES equal to the registry's own names.
 */
import type { BenchSuiteName } from "./registry.ts";
import type { BenchSuite } from "./suite.ts";

export const BUILT_IN_SUITE_NAMES = ["profile", "quality", "cache", "overhead", "throughput", "store"] as const satisfies readonly BenchSuiteName[];

/** Suites added by registerBenchSuite (registry.ts), in the order added. */
export const addedSuites: BenchSuite<any>[] = [];

/** The suite names in run order (what `--suite` accepts). */
export function availableSuites(): BenchSuiteName[] {
  return [...BUILT_IN_SUITE_NAMES, ...addedSuites.map((suite) => suite.name as BenchSuiteName)];
}
