import { join, resolve } from "node:path";
import { UsageError } from "../util/errors.ts";
import { isContextEngine, type ContextEngine } from "../contract/context-engine.ts";
import { readSelectedEngine } from "./config.ts";
import { assertRootsExist, describePlugin, pluginRoots } from "./discover.ts";
import { assertSafeEngineName } from "./engine-name.ts";
import { assertPluginModuleExists, runGeneralPlugin } from "./general.ts";
import { importPluginModule, instanceFromModule } from "./instantiate.ts";
import { DEFAULT_ENGINE, type DiscoveredEngine, type LoadEngineOptions, type LoadedEngine } from "./types.ts";
import { firstLine } from "./yaml-file.ts";

/**
 * Select and load one engine, as the host does at start-up: the name from `options.name` or
 * `context.engine` (REG-1); then the plugin directory of that name, the bundled root first (REG-2);
 * then a general plugin's registered engine if its name matches, cloned for this agent (REG-3);
 * otherwise the built-in compressor with a warning naming the engine and the cause (REG-4), or a
 * UsageError with `strict`. Bad arguments and config files are UsageErrors in either mode.
 */
export async function loadEngine(options: LoadEngineOptions): Promise<LoadedEngine> {
  const roots = pluginRoots(options);
  await assertRootsExist(roots);
  const pluginModule = options.pluginModule === undefined ? undefined : resolve(options.cwd, options.pluginModule);
  if (pluginModule !== undefined) await assertPluginModuleExists(pluginModule);
  const explicit = options.name?.trim();
  const selected = explicit ? explicit : await readSelectedEngine(options.cwd, options.configPath);
  assertSafeEngineName(selected, explicit ? "--engine" : "context.engine");

  const warnings: string[] = [];
  const causes: string[] = [];
  let general: ContextEngine | null = null;
  let generalFailure: string | null = null;
  if (pluginModule !== undefined) {
    try {
      const result = await runGeneralPlugin(pluginModule, options.cwd);
      warnings.push(...result.warnings);
      general = result.engine;
    } catch (error) {
      // Named once: as a warning if another engine loads, in the fallback's cause otherwise.
      generalFailure = firstLine(error);
      causes.push(generalFailure);
    }
  }

  for (const root of roots) {
    const directory = join(root.directory, selected);
    try {
      const found = await describePlugin(directory, selected, root.bundled);
      if (!found) continue;
      const loaded = await loadFromDirectory(found);
      const reported = engineNameOf(loaded.result.engine, found.entry);
      if (reported !== selected) loaded.warnings.push(`context engine "${selected}" reports the name ${JSON.stringify(reported)}; REG-5 wants them equal`);
      return { ...loaded.result, selected, warnings: [...warnings, ...(generalFailure ? [generalFailure] : []), ...loaded.warnings] };
    } catch (error) {
      causes.push(firstLine(error));
      break;
    }
  }

  let generalName: unknown = null;
  if (general !== null) {
    try {
      generalName = engineNameOf(general, pluginModule!);
    } catch (error) {
      causes.push(firstLine(error));
      general = null;
    }
  }
  if (general !== null) {
    if (generalName === selected) {
      const candidate = general;
      try {
        const engine = cloneForAgent(candidate);
        return {
          engine,
          name: selected,
          selected,
          version: null,
          source: "general",
          directory: null,
          warnings,
          createFresh: async () => cloneForAgent(candidate),
        };
      } catch (error) {
        return fallBack(options, selected, `could not be safely copied for this agent (${firstLine(error)})`, warnings);
      }
    }
    causes.push(`the general plugin registered ${JSON.stringify(generalName)}, not "${selected}"`);
  }
  return fallBack(options, selected, causes.length > 0 ? `failed to load: ${causes.join("; ")}` : "not found", warnings);
}

async function fallBack(options: LoadEngineOptions, selected: string, cause: string, warnings: string[]): Promise<LoadedEngine> {
  const message = `context engine "${selected}" ${cause}`;
  if (options.strict) throw new UsageError(message);
  if (selected === DEFAULT_ENGINE) throw new Error(`the built-in ${message}`);
  const builtIn = await describePlugin(join(pluginRoots(options)[0]!.directory, DEFAULT_ENGINE), DEFAULT_ENGINE, true);
  if (!builtIn) throw new Error(`${message}, and the built-in compressor is missing from this installation`);
  const loaded = await loadFromDirectory(builtIn);
  return {
    ...loaded.result,
    source: "fallback",
    selected,
    warnings: [...warnings, ...loaded.warnings, `${message} — falling back to the built-in compressor`],
  };
}

interface DirectoryLoad {
  result: Omit<LoadedEngine, "selected" | "warnings">;
  warnings: string[];
}

async function loadFromDirectory(found: DiscoveredEngine): Promise<DirectoryLoad> {
  const module = await importPluginModule(found.entry);
  const first = await instanceFromModule(module, found.entry);
  const result = {
    engine: first.engine,
    name: found.name,
    version: found.version,
    source: found.bundled ? "bundled" : "directory",
    directory: found.directory,
    // The module stays cached: a fresh instance costs one register() call or one constructor.
    createFresh: async () => (await instanceFromModule(module, found.entry)).engine,
  } satisfies DirectoryLoad["result"];
  return { result, warnings: first.warnings };
}

/** The engine's `name`, read once; a getter that throws is named with the file and the member. */
export function engineNameOf(engine: ContextEngine, file: string): unknown {
  try {
    return engine.name;
  } catch (error) {
    throw new Error(`${file}: reading the engine's name threw: ${firstLine(error)}`);
  }
}

function cloneForAgent(candidate: ContextEngine): ContextEngine {
  const clone: unknown = candidate.clone_for_agent();
  if (!isContextEngine(clone)) throw new Error("clone_for_agent() did not return a ContextEngine");
  return clone;
}
