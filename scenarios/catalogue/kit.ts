import type { Faker } from "@faker-js/faker";
import type { Scenario, ScheduleStep } from "../format.ts";
import { seededFaker } from "../generate/faker.ts";
import { assembleScenario, generateSession, type GenerateOptions, type SessionBuild } from "../generate/generate.ts";
import { CanaryMint } from "../generate/planting.ts";
import type { ToolCallIdStyle } from "../../harness/testkit/tool-call-ids.ts";
import { turnMessages } from "../transcript.ts";

export interface ScenarioInfo {
  name: string;
  description: string;
  /** Rule IDs (RULES.md) the scenario exercises. */
  rules: string[];
}

export interface CatalogueEntry extends ScenarioInfo {
  build(seed: number): Scenario;
}

/** The seeded state one catalogue build draws from, in a fixed order. */
export class ScenarioKit {
  readonly faker: Faker;
  readonly #mint: CanaryMint;

  constructor(
    readonly info: ScenarioInfo,
    readonly seed: number,
  ) {
    this.faker = seededFaker(seed);
    this.#mint = new CanaryMint(this.faker);
  }

  session(id: string, options: GenerateOptions, style: ToolCallIdStyle = "unique"): SessionBuild {
    return generateSession(this.faker, id, style, options, this.#mint);
  }

  /** A canary planted by hand (e.g. on a topic the scenario needs). */
  get mint(): CanaryMint {
    return this.#mint;
  }

  finish(builds: SessionBuild[], schedule: ScheduleStep[], extra: Partial<Pick<Scenario, "legacyStore" | "host">> = {}): Scenario {
    const scenario = assembleScenario({ ...this.info, seed: this.seed }, builds, schedule);
    if (extra.legacyStore) scenario.legacyStore = extra.legacyStore;
    if (extra.host) scenario.host = extra.host;
    return scenario;
  }
}

/** Rough-token threshold the default engines compact at: 75% of the window. */
export function compactionThreshold(contextLength: number): number {
  return Math.floor(contextLength * 0.75);
}

/** Keep the first `turns` turns of a session, and the canaries and secrets planted in them. */
export function truncateSession(build: SessionBuild, turns: number): SessionBuild {
  return {
    session: { ...build.session, turns: build.session.turns.slice(0, turns) },
    canaries: build.canaries.filter((c) => c.turn < turns),
    secrets: build.secrets.filter((s) => s.turn < turns),
  };
}

/** Length of the session's message list once `turn` has completed (system prompt included), nothing compacted. */
export function messagesThroughTurn(build: SessionBuild, turn: number): number {
  let count = 1;
  for (let t = 0; t <= turn; t++) count += turnMessages(build.session.turns[t]!).length;
  return count;
}

/** Index (in the full message list) of the user message of `turn`. */
export function userMessageIndex(build: SessionBuild, turn: number): number {
  return turn === 0 ? 1 : messagesThroughTurn(build, turn - 1);
}

/** Sequential schedule of one session's turns. */
export function playAll(build: SessionBuild): ScheduleStep[] {
  return build.session.turns.map((_, turn) => ({ kind: "turn", session: build.session.id, turn }));
}
