import { MinimalEngine } from "../../testkit/minimal-engine.ts";
import { buildScenario, generateScenario, type Scenario } from "../../../scenarios/index.ts";

/**
 * The scenarios the cache benchmark plays. Catalogue names resolve through the catalogue; the one
 * name below is generated here: a short window so that compaction fires several times within forty
 * turns, and a transient provider error every seventh turn so that the host retries a provider call
 * on an unchanged conversation (SEL-5), which is where a needless selection change shows.
 */
export const CACHE_RETRIES_SCENARIO = "cache-retries";
export const DEFAULT_CACHE_SCENARIOS = ["provider-faults", CACHE_RETRIES_SCENARIO];

export interface CacheRetriesOptions {
  seed: number;
  turns?: number;
  toolOutputBytes?: number;
  contextLength?: number;
  /** A transient error before the first response of every `retryEvery`-th turn. */
  retryEvery?: number;
}

export function cacheRetriesScenario(options: CacheRetriesOptions): Scenario {
  const scenario = generateScenario({
    name: CACHE_RETRIES_SCENARIO,
    description: "Coding turns in a 12k window (several compactions) with a transient provider error every seventh turn, retried on an unchanged conversation.",
    rules: ["SEL-5", "CACHE-1", "CACHE-2"],
    seed: options.seed,
    turns: options.turns ?? 40,
    toolOutputBytes: options.toolOutputBytes ?? 1200,
    contextLength: options.contextLength ?? 12_000,
  });
  const every = options.retryEvery ?? 7;
  for (const session of scenario.sessions) {
    for (let turn = 1; turn < session.turns.length; turn += every) {
      const first = session.turns[turn]!.steps[0];
      if (first !== undefined) first.fault = { kind: "transient", failures: 1 };
    }
  }
  return scenario;
}

export function resolveCacheScenario(name: string, seed: number): Scenario {
  return name === CACHE_RETRIES_SCENARIO ? cacheRetriesScenario({ seed }) : buildScenario(name, seed);
}

/**
 * The ceiling: an engine that never compacts and never selects (it inherits select_context, so the
 * host skips it), played on the same scenario with a window wide enough that nothing overflows.
 * Every request then extends the previous one, which is the best any engine's cache can do.
 */
export class CeilingEngine extends MinimalEngine {
  constructor() {
    super({ name: "ceiling", compacts: false });
  }
}

/** The scenario with a window no request can exceed: no message has more tokens than characters of its JSON. */
export function ceilingScenario(scenario: Scenario): Scenario {
  return { ...scenario, context_length: scenario.context_length + JSON.stringify(scenario.sessions).length };
}
