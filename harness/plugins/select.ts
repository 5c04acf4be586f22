import { readdir, readFile, stat } from "node:fs/promises";
import { extname, join, resolve } from "node:path";
import { UsageError } from "../util/errors.ts";
import { isExecutableFile } from "../util/executable-file.ts";
import { readRunConfig, readSelectedEngine } from "./config.ts";
import { assertRootsExist, describePlugin, languageOfEntry, pluginDirectoryNames, pluginRoots } from "./discover.ts";
import { assertSafeEngineName } from "./engine-name.ts";
import { hermesCompressor } from "./hermes-agent.ts";
import { BUNDLED_PREFIX, type EngineCandidate, type EngineRuntime, type EngineSpec } from "./spec.ts";
import type { DiscoveredEngine, DiscoverOptions } from "./types.ts";

export interface SelectEngineOptions extends DiscoverOptions {
  /** `--engine NAME` (else `context.engine` of the config); `bundled:NAME` names the bundled engine. */
  name?: string;
  /** A general plugin module (`--plugin-module FILE`) whose register(ctx) may register the engine. */
  pluginModule?: string;
  /** Defaults to `<cwd>/config.yaml`, which may be absent; a path given here must exist. */
  configPath?: string;
  /** `--python`: the interpreter a Python plugin's player uses. */
  python?: string;
}

export interface EngineSelection {
  spec: EngineSpec;
  /** Said once, before the run (e.g. which of two engines of one name is tested). */
  notices: string[];
}

/**
 * The engine a command that tests one engine will play, from discovery alone (manifests and file
 * names; no engine code runs here). A user plugin directory named after the selection wins over
 * the bundled engine of that name, with a notice; `bundled:NAME` reaches the bundled one. Without
 * such a directory the player tries the `--plugin-module`, then, through the general-plugin path,
 * every other user plugin directory whose sources name the selection in quotes (its register(ctx)
 * may register it: `plugins/hermes-lcm/` registering "lcm"), then the bundled directory. Other
 * plugins are never imported to find out. Bad arguments and files are UsageErrors, and so is a
 * name nothing could provide.
 */
export async function selectEngine(options: SelectEngineOptions): Promise<EngineSelection> {
  const roots = pluginRoots(options);
  await assertRootsExist(roots);
  const pluginModule = options.pluginModule === undefined ? undefined : resolve(options.cwd, options.pluginModule);
  if (pluginModule !== undefined && !(await isFile(pluginModule))) throw new UsageError(`${pluginModule}: plugin module does not exist`);
  // Checked whatever the engine's language: a wrong --python on a TypeScript engine is a typo the
  // user should hear about, not an option that silently does nothing.
  if (options.python !== undefined && !isExecutableFile(resolve(options.cwd, options.python))) throw new UsageError(`--python ${options.python}: no executable file there`);
  const explicit = options.name?.trim();
  const selection = explicit ? explicit : await readSelectedEngine(options.cwd, options.configPath);
  const bundledOnly = selection.startsWith(BUNDLED_PREFIX);
  const name = bundledOnly ? selection.slice(BUNDLED_PREFIX.length) : selection;
  assertSafeEngineName(name, explicit ? "--engine" : "context.engine");
  if (name === "") throw new UsageError(`${explicit ? "--engine" : "context.engine"}: "${selection}" names no engine`);

  const runtime: EngineRuntime = {
    python: options.python ?? null,
    hermesAgent: options.hermesAgent === undefined ? null : resolve(options.cwd, options.hermesAgent),
    config: await readRunConfig(options.cwd, options.configPath, name),
  };
  const [bundledRoot, ...userRoots] = roots;
  const bundled = await describePlugin(join(bundledRoot!.directory, name), name, true);
  if (bundledOnly) {
    if (bundled === null) throw new UsageError(`there is no bundled engine "${name}"`);
    return { spec: { name, selection, candidates: [directoryCandidate(bundled)], runtime }, notices: [] };
  }

  // A user's engine of the name: a plugin directory, or a hermes-agent checkout's built-in compressor.
  for (const find of [...userRoots.map((root) => () => describePlugin(join(root.directory, name), name, false)), async () => ((await hermesCompressor(options))?.name === name ? hermesCompressor(options) : null)]) {
    const own = await find();
    if (own === null) continue;
    const notices = bundled === null ? [] : [clashNotice(name, own.directory)];
    return { spec: { name, selection, candidates: [directoryCandidate(own)], runtime }, notices };
  }

  const candidates: EngineCandidate[] = [];
  if (pluginModule !== undefined) candidates.push({ path: "module", location: pluginModule, entry: pluginModule, language: languageOfEntry(pluginModule), bundled: false, manifest: null, mode: null });
  for (const root of userRoots) {
    for (const directoryName of await pluginDirectoryNames(root.directory)) {
      const found = await describePlugin(join(root.directory, directoryName), directoryName, false);
      if (found !== null && (await sourcesMention(found.directory, name))) candidates.push({ ...directoryCandidate(found), path: "general", mode: found.language === "python" ? "general" : null });
    }
  }
  if (bundled !== null) candidates.push(directoryCandidate(bundled));
  if (candidates.length === 0) throw new UsageError(`context engine "${name}" not found: no plugin directory of that name under ${roots.map((root) => root.directory).join(", ")}`);
  return { spec: { name, selection, candidates, runtime }, notices: [] };
}

/** Said when a user plugin takes a name a bundled engine also has. */
export function clashNotice(name: string, location: string): string {
  return `testing the plugin "${name}" from ${location}; the bundled engine of that name stays reachable as ${BUNDLED_PREFIX}${name}`;
}

/** A discovered plugin directory as a candidate of the directory path. */
export function directoryCandidate(found: DiscoveredEngine): EngineCandidate {
  return {
    path: "directory",
    location: found.directory,
    entry: found.entry,
    language: found.language,
    bundled: found.bundled,
    manifest: { name: found.manifestName, version: found.version, description: found.description, searchTool: found.searchTool },
    mode: found.mode ?? null,
  };
}

const SOURCE_EXTENSIONS = new Set([".ts", ".mts", ".cts", ".js", ".mjs", ".cjs", ".py"]);
const SCAN_LIMITS = { files: 200, bytes: 4 * 1024 * 1024 };

/**
 * Whether a plugin directory's source files hold the name as a quoted string: the sign that its
 * register(ctx) may register an engine of that name. Read as text, never run; bounded.
 */
export async function sourcesMention(directory: string, name: string): Promise<boolean> {
  const quoted = new RegExp(`["'\`]${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}["'\`]`);
  let files = 0;
  let bytes = 0;
  const walk = async (dir: string): Promise<boolean> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return false;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (files >= SCAN_LIMITS.files || bytes >= SCAN_LIMITS.bytes) return false;
      if (entry.name === "node_modules" || entry.name.startsWith(".") || entry.name === "__pycache__") continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (await walk(path)) return true;
      } else if (entry.isFile() && SOURCE_EXTENSIONS.has(extname(entry.name))) {
        files += 1;
        const text = await readFile(path, "utf8").catch(() => "");
        bytes += text.length;
        if (quoted.test(text)) return true;
      }
    }
    return false;
  };
  return walk(directory);
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

