import { appendToUser, generateScenario } from "../../../scenarios/generate/generate.ts";
import { seededFaker } from "../../../scenarios/generate/faker.ts";
import { CANARY_TOPICS, CanaryMint, canarySentence } from "../../../scenarios/generate/planting.ts";
import type { Scenario } from "../../../scenarios/index.ts";

export const QUALITY_SCENARIO = "quality-canaries";

export interface QualityScenarioOptions {
  seed: number;
  /** Compactions the traffic is sized to force (default 2). */
  compactions?: number;
  /** Canaries planted, one per turn from turn 1 (default 6). */
  canaries?: number;
  contextLength?: number;
  toolOutputBytes?: number;
}

/** Mean rough tokens one generated turn adds: 1.5 tool steps of `toolOutputBytes` characters, plus the chat around them. */
function tokensPerTurn(toolOutputBytes: number): number {
  return (1.5 * toolOutputBytes) / 4 + 120;
}

/**
 * One coding session with canaries planted in its first turns, then enough traffic for the default
 * engines to compact `compactions` times: the first pass fires at 75% of the window and each later
 * one after roughly another half window of new traffic (they keep about a quarter). The count the
 * engine actually reaches is read from its trace, not assumed.
 */
export function qualityScenario(options: QualityScenarioOptions): Scenario {
  const contextLength = options.contextLength ?? 12_000;
  const toolOutputBytes = options.toolOutputBytes ?? 1200;
  const compactions = Math.max(1, options.compactions ?? 2);
  const canaries = options.canaries ?? 6;
  const traffic = contextLength * (0.75 + 0.6 * compactions);
  const turns = Math.max(canaries + 2, Math.ceil(traffic / tokensPerTurn(toolOutputBytes)));
  const scenario = generateScenario({
    name: QUALITY_SCENARIO,
    description: `Canaries planted in the first ${canaries} turns of a coding session long enough for ${compactions} compactions in a ${contextLength}-token window.`,
    rules: ["CMP-1", "TOOL-1"],
    seed: options.seed,
    turns,
    toolOutputBytes,
    toolStepsPerTurn: [1, 2],
    contextLength,
    canariesPerSession: 0,
    secretsPerSession: 0,
  });
  const session = scenario.sessions[0]!;
  const mint = new CanaryMint(seededFaker(options.seed + 1));
  for (let index = 0; index < canaries; index++) {
    const turn = 1 + index;
    const canary = mint.canary(session.id, turn, CANARY_TOPICS[index % CANARY_TOPICS.length]!);
    appendToUser(session.turns[turn]!, canarySentence(canary));
    scenario.canaries.push(canary);
  }
  return scenario;
}
