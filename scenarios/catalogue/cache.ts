import { buildCacheDirectory, readCacheFile, writeCacheFile } from "../../harness/util/build-cache.ts";
import type { Scenario } from "../format.ts";
import { buildScenario, DEFAULT_SEED } from "./index.ts";

/**
 * A catalogue scenario built once per build of ctxbench and seed, then read from the disk cache
 * (harness/util/build-cache.ts) by every later command: building the scenarios a certification
 * reads took about 190 ms of its parent's time, parsing them about 15 ms. A scenario is JSON data
 * (the scenario schema), so the parsed entry is the scenario built, value for value (tested for
 * every catalogue entry). An unknown name or a bad seed throws as buildScenario does.
 */
export function catalogueScenario(name: string, seed: number = DEFAULT_SEED, directory: string | undefined = scenarioCacheDirectory()): Scenario {
  if (directory === undefined || !Number.isSafeInteger(seed) || !/^[a-z0-9-]+$/.test(name)) return buildScenario(name, seed);
  const file = `${name}.seed-${seed}.json`;
  const cached = readCacheFile(directory, file);
  if (cached !== undefined) {
    try {
      const scenario = JSON.parse(cached) as Scenario;
      if (scenario.name === name && scenario.seed === seed) return scenario;
    } catch {
      // a damaged entry: built again and rewritten below
    }
  }
  const scenario = buildScenario(name, seed);
  writeCacheFile(directory, file, JSON.stringify(scenario));
  return scenario;
}

/** The directory of this build's cached scenarios (none from the sources, or with CTXBENCH_CACHE_DIR=off). */
export function scenarioCacheDirectory(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return buildCacheDirectory("scenarios", env);
}
