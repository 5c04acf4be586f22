import { UsageError } from "../../harness/util/errors.ts";
import type { Scenario } from "../format.ts";
import { assertScenario } from "../validate.ts";
import { faultEntries } from "./faults.ts";
import { identityEntries } from "./identity.ts";
import type { CatalogueEntry, ScenarioInfo } from "./kit.ts";
import { trafficEntries } from "./traffic.ts";

export type { ScenarioInfo } from "./kit.ts";

/** The seed a catalogue scenario is built with when none is given. */
export const DEFAULT_SEED = 1;

const ENTRIES: readonly CatalogueEntry[] = [...trafficEntries, ...identityEntries, ...faultEntries];
const BY_NAME = new Map(ENTRIES.map((e) => [e.name, e]));

/** Every catalogue scenario: name, description and the rules it exercises. */
export function listScenarios(): ScenarioInfo[] {
  return ENTRIES.map(({ name, description, rules }) => ({ name, description, rules: [...rules] }));
}

/** A catalogue name that names no scenario (exit 2). */
export class UnknownScenarioError extends UsageError {
  constructor(
    readonly scenarioName: string,
    hint?: string,
  ) {
    super(`unknown scenario "${scenarioName}"; known: ${ENTRIES.map((e) => e.name).join(", ")}${hint === undefined ? "" : `; ${hint}`}`);
  }
}

/** Build a catalogue scenario; the same name and seed give the same bytes. */
export function buildScenario(name: string, seed: number = DEFAULT_SEED): Scenario {
  const entry = BY_NAME.get(name);
  if (!entry) throw new UnknownScenarioError(name);
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  const scenario = entry.build(seed);
  assertScenario(scenario, `catalogue scenario "${name}" (seed ${seed})`);
  return scenario;
}
