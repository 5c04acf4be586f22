import type { BenchSuiteName, BenchSuiteResult } from "../../reports/result.ts";
import { runCacheBench } from "./suites/cache.ts";
import { CACHE_RETRIES_SCENARIO } from "./suites/cache-scenarios.ts";
import { runOverheadBench } from "./suites/overhead.ts";
import { runQualityBench } from "./suites/quality.ts";
import { runStoreSuite } from "./suites/store-suite.ts";
import { runThroughputSuite } from "./suites/throughput.ts";
import type { EngineFactory } from "./engine-factory.ts";

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

export type SuiteRunner = (context: SuiteContext) => Promise<BenchSuiteResult>;

/** Every suite, runnable alone (`ctxbench bench --suite NAME`). */
export const suiteRunners: Partial<Record<BenchSuiteName, SuiteRunner>> = {
  overhead: (context) =>
    runOverheadBench({
      engines: context.engines,
      seed: context.seed,
      ...(context.quick ? { messages: 200, measure: { rounds: 2, samplesPerRound: 20 } } : {}),
    }),
  cache: (context) =>
    runCacheBench({ engines: context.engines, seed: context.seed, ...(context.quick ? { scenarios: [CACHE_RETRIES_SCENARIO] } : {}) }),
  quality: (context) => runQualityBench({ engines: context.engines, seed: context.seed }),
  throughput: (context) =>
    runThroughputSuite({ engines: context.engines, seed: context.seed, ...(context.quick ? { sizes: [1_000, 4_000, 10_000] } : {}) }),
  store: (context) =>
    runStoreSuite({ dir: context.scratchDir, ...(context.quick ? { rows: 50_000, legacyRows: 100_000 } : {}) }),
};

/** The suites in the order a full run takes them. */
export const SUITE_ORDER: readonly BenchSuiteName[] = ["overhead", "cache", "throughput", "quality", "store"];

export function availableSuites(): BenchSuiteName[] {
  return SUITE_ORDER.filter((name) => suiteRunners[name] !== undefined);
}
