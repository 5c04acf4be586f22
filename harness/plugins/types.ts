import type { ContextEngine } from "../contract/context-engine.ts";

/** The built-in engine every failed selection falls back to (REG-1, REG-4). */
export const DEFAULT_ENGINE = "compressor";

/** What `plugin.yaml` declares. */
export interface PluginManifest {
  name: string;
  description: string;
  version: string | null;
  /** `ctxbench: {search_tool, search_parameter}`: the tool the quality suite asks for recall. */
  searchTool: { tool: string; parameter: string | null } | null;
}

/** A plugin directory found under one of the discovery roots. */
export interface DiscoveredEngine {
  /** The directory's name: the value that selects the engine. */
  name: string;
  /** `name` as written in plugin.yaml (REG-5 wants it equal to `name`). */
  manifestName: string;
  version: string | null;
  description: string;
  /** plugin.yaml's `ctxbench: {search_tool}` hint for the quality benchmark, or null. */
  searchTool: PluginManifest["searchTool"];
  directory: string;
  /** The entry module (index.ts, index.js, …; __init__.py for a Python plugin). */
  entry: string;
  /** True for the engines shipped inside ctxbench itself. */
  bundled: boolean;
  /** Decided from the entry module: TypeScript/JavaScript run in-process, Python behind the Hermes bridge. */
  language: EngineLanguage;
  /** How a Python plugin is loaded (default the directory path); see docs/engine-protocol.md. */
  mode?: "directory" | "general" | "builtin-compressor";
}

export type EngineLanguage = "typescript" | "python";

export interface DiscoverOptions {
  cwd: string;
  /** Extra roots that hold plugin directories (`--plugins DIR`); relative to `cwd`. */
  pluginDirs?: string[];
  /** Replaces the bundled `engines/` root; for tests of the loader itself. */
  bundledRoot?: string;
  /** A hermes-agent checkout (`--hermes-agent DIR`): its context-engine plugins and its built-in compressor become engines. */
  hermesAgent?: string;
}

export interface LoadEngineOptions extends DiscoverOptions {
  /** Overrides `context.engine` of the config (`--engine NAME`). */
  name?: string;
  /** A general plugin whose `register(ctx)` may call `ctx.register_context_engine(engine)` (`--plugin-module`). */
  pluginModule?: string;
  /** Defaults to `<cwd>/config.yaml`, which may be absent; a path given here must exist. */
  configPath?: string;
  /**
   * Throw a UsageError when the selected engine is unknown or fails to load, instead of falling back
   * to the built-in compressor (REG-4). For commands that must test exactly the engine named.
   */
  strict?: boolean;
  /** The Python interpreter for Python plugins (`--python PATH`; default python3 on PATH). */
  python?: string;
}

/** What a fresh instance may be given: the run's sandbox, which becomes a Python engine's HERMES_HOME. */
export interface FreshEngineOptions {
  home?: string;
}

export type EngineSource = "bundled" | "directory" | "general" | "fallback";

export interface LoadedEngine {
  engine: ContextEngine;
  /** The name of the engine that was loaded (`compressor` after a fallback). */
  name: string;
  /** The name that was asked for, from `--engine` or the config. */
  selected: string;
  version: string | null;
  source: EngineSource;
  directory: string | null;
  warnings: string[];
  /** Decided from the plugin's files; "typescript" for the built-in fallback. */
  language: EngineLanguage;
  /** Another instance of the same engine, as a fresh load would give it, without re-reading any file. */
  createFresh(options?: FreshEngineOptions): Promise<ContextEngine>;
}
