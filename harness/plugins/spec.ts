import type { EngineLanguage, PluginManifest } from "./types.ts";

/**
 * One way a player may find the selected engine, as discovery saw it (manifests and file names
 * only; no engine code is read to build it):
 * - `directory`: the plugin directory named after the selection (`<root>/<name>/`); its entry
 *   module's `register(ctx)`, else its first ContextEngine subclass, is the engine.
 * - `general`: a plugin directory of another name whose `register(ctx)` may register an engine
 *   of the selected name (the general-plugin path: `plugins/hermes-lcm/` registering `lcm`).
 * - `module`: a `--plugin-module` file whose `register(ctx)` may register it.
 */
export interface EngineCandidate {
  path: "directory" | "general" | "module";
  /** The plugin directory, or the module file for `module`. */
  location: string;
  /** The entry module to import (for `module`, the file itself). */
  entry: string;
  language: EngineLanguage;
  bundled: boolean;
  /** The directory's plugin.yaml; null for a module file. */
  manifest: PluginManifest | null;
  /** How a Python plugin is loaded, when discovery says (a hermes-agent checkout's built-in compressor); null otherwise. */
  mode: "directory" | "general" | "builtin-compressor" | null;
}

/** What the Python loader needs beyond the plugin: `--python` and `--hermes-agent` (absolute), or null. */
export interface EngineRuntime {
  python: string | null;
  hermesAgent: string | null;
  /** The run's config.yaml (a Python engine's `load_config()`), `context.engine` the selected engine; null without one. */
  config: Record<string, unknown> | null;
  /**
   * TypeScript/JavaScript engines behind the engine protocol (the Node adapter, a RemoteEngine in
   * the player) instead of in the player itself: the faithfulness proof certifies both ways and
   * compares. Absent: in the player.
   */
  typescriptOverProtocol?: boolean;
}

/** What a player is told to load: the selection and the candidates, tried in order. */
export interface EngineSpec {
  /** The engine's name: the value that selects it. */
  name: string;
  /** The selection as the user wrote it (`lcm`, or `bundled:lcm` for the bundled one). */
  selection: string;
  candidates: EngineCandidate[];
  runtime: EngineRuntime;
}

/** How a player found the engine, reported in its `ready` message. */
export interface EngineInfo {
  name: string;
  selection: string;
  /** What the engine's own `name` returned (null when reading it failed). */
  reportedName: string | null;
  /** plugin.yaml's version, else the engine's own `version`, else null. */
  version: string | null;
  language: EngineLanguage;
  path: EngineCandidate["path"];
  bundled: boolean;
  /** The plugin directory (or module file) it came from. */
  location: string;
  /** The plugin directory's name; null for a module file. */
  directoryName: string | null;
  manifestName: string | null;
  /** Warnings of the load (a refused second registration, …) and the clash notice. */
  notices: string[];
}

/** The prefix that names the bundled engine when a user plugin of the same name is in the way. */
export const BUNDLED_PREFIX = "bundled:";
