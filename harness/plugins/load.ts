import { join, resolve } from "node:path";
import { UsageError } from "../util/errors.ts";
import { isContextEngine, type ContextEngine } from "../contract/context-engine.ts";
import { readSelectedEngine } from "./config.ts";
import { assertRootsExist, describePlugin, pluginRoots, type PluginRoot } from "./discover.ts";
import { assertSafeEngineName } from "./engine-name.ts";
import { assertPluginModuleExists, runGeneralPlugin } from "./general.ts";
import { hermesCompressor } from "./hermes-agent.ts";
import { importPluginModule, instanceFromModule } from "./instantiate.ts";
import { loadPythonPlugin } from "./python-plugin.ts";
import { DEFAULT_ENGINE, type DiscoveredEngine, type LoadEngineOptions, type LoadedEngine } from "./types.ts";
import { firstLine } from "./yaml-file.ts";

/** `bundled:NAME` selects a bundled engine whatever the plugin directories hold. */
export const BUNDLED_PREFIX = "bundled:";

/**
 * Select and load one engine, as the host does at start-up: the name from `options.name` or
 * `context.engine` (REG-1); then the plugin directory of that name, the bundled root first (REG-2);
 * then a general plugin's registered engine if its name matches, cloned for this agent (REG-3);
 * otherwise the built-in compressor with a warning naming the engine and the cause (REG-4), or a
 * UsageError with `strict`. Bad arguments and config files are UsageErrors in either mode.
 *
 * With `strict` (the commands that test the engine named) a user's plugin of a bundled engine's
 * name wins, with a notice, so it can be certified; `bundled:NAME` still selects the bundled one.
 * A Python plugin directory (`__init__.py`) is loaded through the Hermes bridge.
 */
export async function loadEngine(options: LoadEngineOptions): Promise<LoadedEngine> {
  const allRoots = pluginRoots(options);
  await assertRootsExist(allRoots);
  const pluginModule = options.pluginModule === undefined ? undefined : resolve(options.cwd, options.pluginModule);
  if (pluginModule !== undefined) await assertPluginModuleExists(pluginModule);
  const explicit = options.name?.trim();
  const asked = explicit ? explicit : await readSelectedEngine(options.cwd, options.configPath);
  const bundledOnly = asked.startsWith(BUNDLED_PREFIX);
  const selected = bundledOnly ? asked.slice(BUNDLED_PREFIX.length) : asked;
  assertSafeEngineName(selected, explicit ? "--engine" : "context.engine");
  const roots = orderRoots(allRoots, bundledOnly, options.strict === true);

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

  const candidates: Array<() => Promise<DiscoveredEngine | null>> = roots.map((root) => () => describePlugin(join(root.directory, selected), selected, root.bundled));
  if (!bundledOnly) {
    // A hermes-agent checkout's built-in compressor is a user's engine: after the plugin roots, before the bundled ones in strict mode.
    const builtIn = async () => {
      const found = await hermesCompressor(options);
      return found?.name === selected ? found : null;
    };
    const firstBundled = candidates.findIndex((_, index) => roots[index]!.bundled);
    if (options.strict === true && firstBundled >= 0) candidates.splice(firstBundled, 0, builtIn);
    else candidates.push(builtIn);
  }
  for (const candidate of candidates) {
    try {
      const found = await candidate();
      if (!found) continue;
      const loaded = await loadFromDirectory(found, options);
      if (!found.bundled && options.strict) {
        const bundled = await describePlugin(join(allRoots[0]!.directory, selected), selected, true).catch(() => null);
        if (bundled) loaded.warnings.push(`"${selected}" is also a bundled engine; testing the one in ${found.directory} (the bundled one is ${BUNDLED_PREFIX}${selected})`);
      }
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
          language: "typescript",
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
  const loaded = await loadFromDirectory(builtIn, options);
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

/**
 * The roots to look in: bundled first for the host's own selection (REG-2); for the commands that
 * test a named engine the user's roots first; `bundled:NAME` the bundled root alone.
 */
function orderRoots(roots: readonly PluginRoot[], bundledOnly: boolean, userFirst: boolean): PluginRoot[] {
  if (bundledOnly) return roots.filter((root) => root.bundled);
  if (!userFirst) return [...roots];
  return [...roots.filter((root) => !root.bundled), ...roots.filter((root) => root.bundled)];
}

async function loadFromDirectory(found: DiscoveredEngine, options: LoadEngineOptions): Promise<DirectoryLoad> {
  if (found.language === "python") {
    const python = await loadPythonPlugin(found, {
      ...(options.python !== undefined ? { python: options.python } : {}),
      ...(options.hermesAgent !== undefined ? { hermesAgent: resolve(options.cwd, options.hermesAgent) } : {}),
    });
    const result = {
      engine: python.engine,
      name: found.name,
      version: found.version,
      source: "directory",
      directory: found.directory,
      language: "python",
      createFresh: python.createFresh,
    } satisfies DirectoryLoad["result"];
    return { result, warnings: [] };
  }
  const module = await importPluginModule(found.entry);
  const first = await instanceFromModule(module, found.entry);
  const result = {
    engine: first.engine,
    name: found.name,
    version: found.version,
    source: found.bundled ? "bundled" : "directory",
    directory: found.directory,
    language: "typescript",
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
