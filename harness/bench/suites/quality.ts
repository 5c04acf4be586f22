import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ContextEngine } from "../../contract/context-engine.ts";
import { estimateTokensRough } from "../../contract/tokens.ts";
import type { Message } from "../../contract/types.ts";
import { playScenario } from "../../host/play.ts";
import { sessionMessages, type Canary, type Scenario } from "../../../scenarios/index.ts";
import type { QualityEngineResult, QualitySuite } from "./quality.suite.ts";
import { closeEngine, type BenchEngine } from "./cache.ts";
import { qualityScenario } from "./quality-scenario.ts";
import { chooseSearchTool, type SearchTool } from "./search-tool.ts";

export interface QualityBenchOptions {
  engines: BenchEngine[];
  seed?: number;
  /** Compactions the scenario is sized to force (default 2). */
  compactions?: number;
  /** A scenario with canaries to play instead of the generated one. */
  scenario?: Scenario;
  /** Where its temporary files go (default the system's temporary directory); a bench player gives its suite one it removes even if the player is killed. */
  scratchDir?: string;
}

/**
 * Planted canaries after K compactions: how many are still in the active context, how many the
 * engine's own search tool finds, and how much of the conversation the engine removed.
 */
export async function runQualityBench(options: QualityBenchOptions): Promise<QualitySuite> {
  const started = performance.now();
  const target = options.compactions ?? 2;
  const scenario = options.scenario ?? qualityScenario({ seed: options.seed ?? 1, compactions: target });
  const warnings: string[] = [];
  if (scenario.canaries.length === 0) warnings.push(`scenario "${scenario.name}" plants no canaries: recall is reported as 0`);
  const engines: QualityEngineResult[] = [];
  for (const spec of options.engines) engines.push(await measureEngine(spec, scenario, target, warnings, options.scratchDir ?? tmpdir()));
  return { suite: "quality", canaries: scenario.canaries.length, engines, warnings, goals: [], noise: null, durationMs: performance.now() - started };
}

async function measureEngine(spec: BenchEngine, scenario: Scenario, target: number, warnings: string[], scratchDir: string): Promise<QualityEngineResult> {
  const home = mkdtempSync(join(scratchDir, "ctxbench-quality-"));
  const engine = await spec.create();
  try {
    const { trace, histories } = await playScenario(scenario, engine, { home });
    const compactions = trace.filter((event) => event.type === "compaction" && event.outcome === "committed").length;
    if (compactions < target) warnings.push(`${spec.name} compacted ${compactions} time(s) in "${scenario.name}", short of the ${target} the scenario is sized for`);
    // playScenario has already ended every session (on_session_end). The tools are asked now, on
    // the same instance and before it is closed: an engine's store outlives the session boundary
    // (upstream agents call these tools in later sessions), and the bundled lcm engine answers here.
    const choice = chooseSearchTool(await engine.get_tool_schemas(), spec.searchTool ?? null);
    const recallViaTools = choice.tool === null ? null : await recallThroughTool(spec.name, engine, choice.tool, scenario.canaries, histories, warnings);
    return {
      engine: spec.name,
      recallActive: fractionOf(scenario.canaries, (canary) => JSON.stringify(histories[canary.session] ?? []).includes(canary.token)),
      recallViaTools,
      searchTool: choice.tool === null ? null : { name: choice.tool.name, parameter: choice.tool.parameter, chosenBy: choice.tool.chosenBy },
      recallViaToolsNotMeasured: choice.why,
      tokensRemovedRatio: tokensRemovedRatio(scenario, histories),
      compactions,
    };
  } finally {
    await closeEngine(engine);
    rmSync(home, { recursive: true, force: true });
  }
}

/**
 * The share of canaries whose token is in the search tool's answer when asked for the fact's
 * words without the token.
 */
async function recallThroughTool(
  name: string,
  engine: ContextEngine,
  search: SearchTool,
  canaries: readonly Canary[],
  histories: Record<string, Message[]>,
  warnings: string[],
): Promise<number> {
  let found = 0;
  for (const canary of canaries) {
    const query = canary.fact.replace(canary.token, " ").replace(/\s+/g, " ").trim();
    try {
      const answer = await engine.handle_tool_call(search.name, { ...search.fixedArguments, [search.parameter]: query }, { messages: histories[canary.session] ?? [] });
      if (String(answer).includes(canary.token)) found += 1;
    } catch (error) {
      warnings.push(`${name}: ${search.name} threw on "${query}": ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return canaries.length > 0 ? found / canaries.length : 0;
}

function fractionOf(canaries: readonly Canary[], kept: (canary: Canary) => boolean): number {
  return canaries.length > 0 ? canaries.filter(kept).length / canaries.length : 0;
}

/** Rough estimator: 1 − (tokens of the final histories ÷ tokens of every message the script appends). */
function tokensRemovedRatio(scenario: Scenario, histories: Record<string, Message[]>): number {
  let appended = 0;
  let active = 0;
  for (const session of scenario.sessions) {
    appended += estimateTokensRough(sessionMessages(session));
    active += estimateTokensRough(histories[session.id] ?? []);
  }
  return appended > 0 ? Math.min(1, Math.max(0, 1 - active / appended)) : 0;
}
