import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BaselineFigure } from "./baseline.ts";
import { figuresOf } from "./figures.ts";
import { findBenchSuite, type BenchEngine, type BenchSuiteName, type BenchSuiteResult } from "./registry.ts";
import { UsageError } from "../util/errors.ts";

export interface BenchPlan {
  suites: BenchSuiteName[];
  engines: BenchEngine[];
  seed: number;
  quick: boolean;
  /** Called before each suite starts (progress on a terminal). */
  onSuiteStart?: (suite: BenchSuiteName, index: number, total: number) => void;
}

export interface BenchRun {
  benchmarks: BenchSuiteResult[];
  figures: Record<string, BaselineFigure>;
}

/** Run the planned suites one after another in this process, each in its own scratch directory. */
export async function runBenchPlan(plan: BenchPlan): Promise<BenchRun> {
  const benchmarks: BenchSuiteResult[] = [];
  const figures: Record<string, BaselineFigure> = {};
  for (const [index, suite] of plan.suites.entries()) {
    const definition = findBenchSuite(suite);
    if (definition === undefined) throw new UsageError(`unknown benchmark suite "${suite}"`);
    plan.onSuiteStart?.(suite, index, plan.suites.length);
    const scratchDir = mkdtempSync(join(tmpdir(), `ctxbench-${suite}-`));
    try {
      const result: BenchSuiteResult = await definition.run({ engines: plan.engines, seed: plan.seed, scratchDir, quick: plan.quick });
      benchmarks.push(result);
      Object.assign(figures, figuresOf(result));
    } finally {
      rmSync(scratchDir, { recursive: true, force: true });
    }
  }
  return { benchmarks, figures };
}
