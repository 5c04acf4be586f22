import type { Fixture } from "./fixtures/kit.ts";
import type { EngineUnderTest } from "./runner.ts";

/** Play the checks' catalogue scenarios through the reference host, as certify does. */
export const HOST_SCENARIOS = true;

export function fixtureUnderTest(fixture: Fixture): EngineUnderTest {
  const name = (fixture.create() as { name: string }).name;
  return { name, version: "0.0.0", selectedName: fixture.selectedName ?? name, createFresh: async () => fixture.create() };
}

/** Outcomes that count as the check catching a broken engine. */
export const CAUGHT = new Set(["fail", "error", "timeout"]);
