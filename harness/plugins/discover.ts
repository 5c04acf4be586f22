import { readdir, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { UsageError } from "../util/errors.ts";
import { hermesCompressor } from "./hermes-agent.ts";
import { MANIFEST_FILE, readManifest } from "./manifest.ts";
import type { DiscoveredEngine, DiscoverOptions, EngineLanguage } from "./types.ts";

/** The engines shipped with ctxbench, found relative to this module rather than the working directory. */
export const BUNDLED_ROOT = fileURLToPath(new URL("../../engines/", import.meta.url));
export const USER_PLUGIN_SUBDIR = join("plugins", "context_engine");
/** TypeScript/JavaScript entry modules, in order of preference (docs/architecture.md, "Engine selection"). */
export const ENTRY_MODULES = ["index.ts", "index.mts", "index.cts", "index.js", "index.mjs", "index.cjs"] as const;
/** A Python plugin's package file (the Hermes directory layout); it is loaded by the Hermes bridge. */
export const PYTHON_ENTRY = "__init__.py";

/** The language a module file is written in; a player needs a loader registered for it. */
export function languageOfEntry(entry: string): EngineLanguage {
  return entry.endsWith(".py") ? "python" : "typescript";
}

export interface PluginRoot {
  directory: string;
  bundled: boolean;
  /** A root the user named explicitly must exist. */
  required: boolean;
}

/**
 * Discovery roots in precedence order: bundled, then `plugins/context_engine/` under cwd, then each
 * `--plugins`, then a `--hermes-agent` checkout's own `plugins/context_engine/`.
 */
export function pluginRoots(options: DiscoverOptions): PluginRoot[] {
  return [
    { directory: options.bundledRoot ?? BUNDLED_ROOT, bundled: true, required: false },
    { directory: join(options.cwd, USER_PLUGIN_SUBDIR), bundled: false, required: false },
    ...(options.pluginDirs ?? []).map((dir) => ({ directory: resolve(options.cwd, dir), bundled: false, required: true })),
    ...(options.hermesAgent !== undefined ? [{ directory: join(resolve(options.cwd, options.hermesAgent), USER_PLUGIN_SUBDIR), bundled: false, required: false }] : []),
  ];
}

/** Check every `--plugins` directory exists before anything else happens. */
export async function assertRootsExist(roots: readonly PluginRoot[]): Promise<void> {
  for (const root of roots) {
    if (root.required && !(await isDirectory(root.directory))) {
      throw new UsageError(`${root.directory}: plugin directory does not exist`);
    }
  }
}

export interface ScanResult {
  /** One engine per name, the first root winning (bundled over user-installed, REG-2). */
  engines: DiscoveredEngine[];
  /** Engines hidden by an engine of the same name in an earlier root. */
  shadowed: DiscoveredEngine[];
  /** Plugin directories that cannot be loaded (no entry module), each with its one-line error. */
  broken: BrokenPlugin[];
}

export interface BrokenPlugin {
  name: string;
  directory: string;
  bundled: boolean;
  error: string;
}

/**
 * Every plugin directory of every root. A broken plugin.yaml is a UsageError; a plugin without an
 * entry module is listed in `broken`, so one bad plugin does not hide the others.
 */
export async function scanPluginRoots(options: DiscoverOptions): Promise<ScanResult> {
  const roots = pluginRoots(options);
  await assertRootsExist(roots);
  const result: ScanResult = { engines: [], shadowed: [], broken: [] };
  const seen = new Set<string>();
  for (const root of roots) {
    for (const name of await pluginDirectoryNames(root.directory)) {
      const directory = join(root.directory, name);
      let found: DiscoveredEngine | null;
      try {
        found = await describePlugin(directory, name, root.bundled);
      } catch (error) {
        if (!(error instanceof MissingEntryError)) throw error;
        if (!seen.has(name)) result.broken.push({ name, directory, bundled: root.bundled, error: error.message });
        seen.add(name);
        continue;
      }
      if (!found) continue;
      (seen.has(name) ? result.shadowed : result.engines).push(found);
      seen.add(name);
    }
  }
  const builtIn = await hermesCompressor(options);
  if (builtIn) (seen.has(builtIn.name) ? result.shadowed : result.engines).push(builtIn);
  return result;
}

/** Every engine found; a plugin without an entry module is a UsageError here. */
export async function discoverEngines(options: DiscoverOptions): Promise<DiscoveredEngine[]> {
  const { engines, broken } = await scanPluginRoots(options);
  if (broken[0]) throw new MissingEntryError(broken[0].error);
  return engines;
}

/** A plugin directory's description, or null when it holds no plugin.yaml (not a plugin). */
export async function describePlugin(directory: string, name: string, bundled: boolean): Promise<DiscoveredEngine | null> {
  if (!(await isFile(join(directory, MANIFEST_FILE)))) return null;
  const manifest = await readManifest(directory);
  const { entry, language } = await findEntry(directory);
  return { name, manifestName: manifest.name, version: manifest.version, description: manifest.description, searchTool: manifest.searchTool, directory, entry, bundled, language };
}

/** The entry module decides the language: index.{ts,mts,cts,js,mjs,cjs} is TypeScript/JavaScript, __init__.py is Python. */
async function findEntry(directory: string): Promise<{ entry: string; language: EngineLanguage }> {
  for (const candidate of ENTRY_MODULES) {
    const file = join(directory, candidate);
    if (await isFile(file)) return { entry: file, language: "typescript" };
  }
  const python = join(directory, PYTHON_ENTRY);
  if (await isFile(python)) return { entry: python, language: "python" };
  throw new MissingEntryError(`${directory}: no entry module (${[...ENTRY_MODULES, PYTHON_ENTRY].join(", ")})`);
}

class MissingEntryError extends UsageError {}

/** Subdirectory names in sorted order, skipping those starting with "_" or "." (upstream). */
export async function pluginDirectoryNames(root: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch {
    return [];
  }
  const names: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith("_") || entry.name.startsWith(".")) continue;
    if (entry.isDirectory() || (entry.isSymbolicLink() && (await isDirectory(join(root, entry.name))))) names.push(entry.name);
  }
  return names.sort();
}

export async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
