import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ContextEngine } from "../../contract/context-engine.ts";
import { disposeEngine } from "../../contract/native.ts";
import { playScenario } from "../../host/play.ts";
import type { Trace } from "../../trace/events.ts";
import type { Scenario } from "../../../scenarios/index.ts";
import type { Goal } from "../suite.ts";
import type { CacheEngineResult, CacheSuite } from "./cache.suite.ts";
import { addTallies, hitRatio, tallyCache, type CacheTally } from "./cache-metrics.ts";
import { CeilingEngine, ceilingScenario, DEFAULT_CACHE_SCENARIOS, resolveCacheScenario } from "./cache-scenarios.ts";
import type { EngineFactory } from "../engine-factory.ts";
import { judgeGoal } from "../goals.ts";

export type BenchEngine = EngineFactory;

export interface CacheBenchOptions {
  engines: BenchEngine[];
  /** Catalogue names, or "cache-retries" (default: provider-faults and cache-retries). */
  scenarios?: string[];
  seed?: number;
  /** Already built scenarios to play instead of `scenarios` (their names are reported). */
  scenarioObjects?: Scenario[];
  /** Where its temporary files go (default the system's temporary directory); a bench player gives its suite one it removes even if the player is killed. */
  scratchDir?: string;
}

/**
 * Every engine through multi-turn scenarios against the simulated provider's prompt cache, beside
 * the ceiling (the same scenarios with no compaction and no selection). Figures per engine are
 * summed over the scenarios; see cache-metrics.ts for the definitions.
 */
export async function runCacheBench(options: CacheBenchOptions): Promise<CacheSuite> {
  const started = performance.now();
  const seed = options.seed ?? 1;
  const scenarios = options.scenarioObjects ?? (options.scenarios ?? DEFAULT_CACHE_SCENARIOS).map((name) => resolveCacheScenario(name, seed));
  const warnings: string[] = [];
  const ceilingTallies: CacheTally[] = [];
  for (const scenario of scenarios) {
    const tally = tallyCache(await playFresh(ceilingScenario(scenario), new CeilingEngine(), options.scratchDir));
    if (tally.unchangedRetries === 0) warnings.push(`scenario "${scenario.name}" retries no provider call on an unchanged conversation, so it cannot show needless selection changes`);
    ceilingTallies.push(tally);
  }
  const ceiling = hitRatio(addTallies(ceilingTallies));
  const engines: CacheEngineResult[] = [];
  const goals: Goal[] = [];
  for (const spec of options.engines) {
    const tallies: CacheTally[] = [];
    for (const scenario of scenarios) {
      const trace = await playFresh(scenario, await spec.create(), options.scratchDir);
      const tally = tallyCache(trace);
      if (!trace.some((event) => event.type === "compaction" && event.outcome === "committed"))
        warnings.push(`${spec.name} committed no compaction in "${scenario.name}": its cache figures there measure selection only`);
      tallies.push(tally);
    }
    const total = addTallies(tallies);
    const result: CacheEngineResult = {
      engine: spec.name,
      turns: total.turns,
      hitRatio: hitRatio(total),
      ceilingHitRatio: ceiling,
      prefixBreaksPer100Turns: total.turns > 0 ? (total.prefixBreaks * 100) / total.turns : 0,
      needlessSelectionChanges: total.needlessSelectionChanges,
      perTurnHitRatio: total.perTurn.map(hitRatio),
    };
    if (result.hitRatio > ceiling) warnings.push(`${spec.name} reads more of its prompts from cache (${result.hitRatio}) than the ceiling (${ceiling})`);
    engines.push(result);
    goals.push(
      judgeGoal(
        {
          id: `CACHE-2/${spec.name}/needless-selection-changes`,
          engine: spec.name,
          description: `${spec.name}: retries of an unchanged conversation whose selection changed (CACHE-2: change the selection only when something changed)`,
          limit: 0,
          unit: "requests",
        },
        result.needlessSelectionChanges,
      ),
    );
  }
  return {
    suite: "cache",
    scenarios: scenarios.map((scenario) => scenario.name),
    engines,
    warnings,
    goals,
    noise: null,
    durationMs: performance.now() - started,
  };
}

/** One play in its own sandbox, removed afterwards; an engine holding connections is closed first. */
async function playFresh(scenario: Scenario, engine: ContextEngine, scratchDir = tmpdir()): Promise<Trace> {
  const home = mkdtempSync(join(scratchDir, "ctxbench-cache-"));
  try {
    const { trace } = await playScenario(scenario, engine, { home });
    return trace;
  } finally {
    await closeEngine(engine);
    rmSync(home, { recursive: true, force: true });
  }
}

/** Close an engine's store if it has a close(), and let go of it (a Python engine's process ends). */
export async function closeEngine(engine: ContextEngine): Promise<void> {
  const close = (engine as unknown as { close?: unknown }).close;
  if (typeof close === "function") (close as () => void).call(engine);
  await disposeEngine(engine);
}
