import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { UsageError } from "../harness/util/errors.ts";
import { catalogueScenario } from "./catalogue/cache.ts";
import { DEFAULT_SEED, listScenarios, UnknownScenarioError } from "./catalogue/index.ts";
import type { Scenario } from "./format.ts";
import { readScenarioFile } from "./io.ts";

/**
 * What a `--scenario NAME|FILE` argument names: the scenario file when that path exists (its
 * seed replaced by `seed` when one is given), else the catalogue scenario built with the seed.
 */
export function scenarioFromArgument(value: string, cwd: string, seed?: number): Scenario {
  const path = resolve(cwd, value);
  if (existsSync(path)) {
    const scenario = readScenarioFile(path);
    return seed === undefined ? scenario : { ...scenario, seed };
  }
  if (value.endsWith(".json")) throw new UsageError(`scenario file ${value} does not exist`);
  if (!listScenarios().some((entry) => entry.name === value)) throw new UnknownScenarioError(value, "or give a scenario JSON file");
  return catalogueScenario(value, seed ?? DEFAULT_SEED);
}
