/**
 * Every benchmark suite, one line each, in the order a full run takes them. A suite is one file
 * (see suite.ts); adding its line here (and its name to suite-names.ts) is all the result schema, the reports, merge, baselines
 * and `--suite` need to know it.
 */
import type { BenchSuite, SuiteResultBase } from "./suite.ts";
import { cacheSuite } from "./suites/cache.suite.ts";
import { overheadSuite } from "./suites/overhead.suite.ts";
import { profileSuite } from "./suites/profile.suite.ts";
import { qualitySuite } from "./suites/quality.suite.ts";
import { storeSuite } from "./suites/store.suite.ts";
import { addedSuites } from "./suite-names.ts";
import { throughputSuite } from "./suites/throughput.suite.ts";

// What an engine is, what it keeps, what it costs: the order of the at-a-glance columns and of the tables.
export const BENCH_SUITES = [profileSuite, qualitySuite, cacheSuite, overheadSuite, throughputSuite, storeSuite] as const;

/** The result of any registered suite. */
export type BenchSuiteResult = Parameters<(typeof BENCH_SUITES)[number]["tables"]>[0];
export type BenchSuiteName = BenchSuiteResult["suite"];

export type { BenchEngine, SuiteContext } from "./suite.ts";

/** The registered suites: the lines above, then any added by registerBenchSuite. */
export function benchSuites(): readonly BenchSuite<any>[] {
  return [...BENCH_SUITES, ...addedSuites];
}

export function findBenchSuite(name: string): BenchSuite<any> | undefined {
  return benchSuites().find((suite) => suite.name === name);
}

export { availableSuites } from "./suite-names.ts";

/**
 * Registers one more suite (a test's throwaway suite, say) for as long as the returned function
 * is not called: the result schema, reports, merge and `--suite` see it like the lines above.
 */
export function registerBenchSuite<R extends SuiteResultBase>(suite: BenchSuite<R>): () => void {
  if (findBenchSuite(suite.name)) throw new Error(`a bench suite named "${suite.name}" is already registered`);
  addedSuites.push(suite);
  return () => {
    const index = addedSuites.indexOf(suite);
    if (index >= 0) addedSuites.splice(index, 1);
  };
}
