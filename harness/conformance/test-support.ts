import { playScenario } from "../host/play.ts";
import { buildScenario } from "../../scenarios/catalogue/index.ts";
import type { Fixture } from "./fixtures/kit.ts";
import type { EngineUnderTest, RunnerOptions } from "./runner.ts";

/** The reference host and the catalogue, as certify wires them. */
export const HOST_SCENARIOS: NonNullable<RunnerOptions["scenarios"]> = {
  build: buildScenario,
  play: (scenario, engine, options) => playScenario(scenario, engine, options),
};

export function fixtureUnderTest(fixture: Fixture): EngineUnderTest {
  const name = (fixture.create() as { name: string }).name;
  return { name, version: "0.0.0", selectedName: fixture.selectedName ?? name, createFresh: async () => fixture.create() };
}

/** Outcomes that count as the check catching a broken engine. */
export const CAUGHT = new Set(["fail", "error", "timeout"]);
