import type { ContextEngine } from "../../contract/context-engine.ts";
import type { EngineCandidate, EngineRuntime } from "../../plugins/spec.ts";

/**
 * How a player turns a plugin of one language into engines. The player asks the loader of each
 * candidate's language, in the plan's order, until one yields the engine:
 * - a `directory` candidate is the engine's own directory: load it or throw;
 * - a `general` or `module` candidate may register an engine of another name: resolve null then,
 *   and the player tries the next one.
 *
 * A loader for another language (e.g. `python`, a RemoteEngine over the engine protocol) is one
 * `registerEngineLoader` call in loaders/index.ts. The engines it makes are ordinary branded
 * ContextEngine objects; their hooks may be async.
 */
export interface EngineLoader {
  load(candidate: EngineCandidate, context: LoaderContext): Promise<LoadedCandidate | null>;
}

export interface LoaderContext {
  /** The selected engine's name (a general plugin must register exactly this name). */
  name: string;
  /** A directory the loader may keep files in for the player's lifetime (e.g. a child's home). */
  sandbox: string;
  /** `--python` and `--hermes-agent`, for the Python loader. */
  runtime: EngineRuntime;
}

export interface LoadedCandidate {
  /** A fresh engine, as a new load would give it (one per recorded run); `home` is the run's sandbox. */
  createFresh(options?: { home?: string }): Promise<ContextEngine>;
  /** The instance made while loading (its name and version are read, then it is let go of). */
  first: ContextEngine;
  /** Warnings of the load (a refused second registration, …). */
  notices: string[];
}

/** A load that failed in a way the user must fix (one line; the command exits 2). */
export class EngineLoadFailure extends Error {
  override name = "EngineLoadFailure";
}

const loaders = new Map<string, EngineLoader>();

export function registerEngineLoader(language: string, loader: EngineLoader): void {
  loaders.set(language, loader);
}

export function engineLoaderFor(language: string): EngineLoader | undefined {
  return loaders.get(language);
}

export function registeredLanguages(): string[] {
  return [...loaders.keys()].sort();
}
