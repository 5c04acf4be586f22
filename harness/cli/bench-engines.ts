import type { ContextEngine } from "../contract/context-engine.ts";
import { disposeEngine } from "../contract/native.ts";
import { discoverEngines } from "../plugins/discover.ts";
import { loadEngine } from "../plugins/load.ts";
import { readManifest } from "../plugins/manifest.ts";
import type { BenchEngine } from "../bench/registry.ts";
import type { CliIo } from "./io.ts";

/** `--python` and `--hermes-agent`, for the commands that load Python plugins. */
export interface PythonRuntimeOptions {
  python?: string;
  hermesAgent?: string;
}

/** The engines a benchmark or comparison runs: the ones named, else every bundled engine. */
export async function benchEngineNames(io: CliIo, names: readonly string[] | undefined, pluginDirs: readonly string[]): Promise<string[]> {
  if (names !== undefined && names.length > 0) return [...new Set(names)];
  const found = await discoverEngines({ cwd: io.cwd, pluginDirs: [...pluginDirs] });
  return found.filter((engine) => engine.bundled).map((engine) => engine.name);
}

/**
 * Load each engine strictly (a name that fails to load is a usage error) and hand out a factory.
 * Suites construct many fresh instances synchronously, so the factory calls the engine's own
 * class with no arguments, as directory discovery instantiates it.
 */
export async function loadBenchEngines(io: CliIo, names: readonly string[], pluginDirs: readonly string[], runtime: PythonRuntimeOptions = {}): Promise<BenchEngine[]> {
  const engines: BenchEngine[] = [];
  for (const name of names) {
    const loaded = await loadEngine({ cwd: io.cwd, name, pluginDirs: [...pluginDirs], strict: true, ...runtime });
    for (const warning of loaded.warnings) io.stderr(`warning: ${warning}\n`);
    const searchTool = loaded.directory === null ? null : (await readManifest(loaded.directory)).searchTool;
    if (loaded.language === "python") {
      // Each instance is its own bridge process; the one made while loading is not needed.
      await disposeEngine(loaded.engine);
      engines.push({ name: loaded.name, version: loaded.version, create: () => loaded.createFresh(), searchTool });
      continue;
    }
    const EngineClass = (loaded.engine as object).constructor as new () => ContextEngine;
    engines.push({ name: loaded.name, version: loaded.version, create: () => new EngineClass(), searchTool });
  }
  return engines;
}
