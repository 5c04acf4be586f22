import type { EngineCandidate } from "../../plugins/spec.ts";
import { firstLine } from "../../plugins/yaml-file.ts";
import { EngineLoadFailure, type EngineLoader, type LoadedCandidate, type LoaderContext } from "./registry.ts";

/**
 * Python plugins through the Hermes bridge (docs/engine-protocol.md): each engine is a
 * RemoteEngine, an ordinary branded ContextEngine whose hooks are async, backed by a bridge process
 * of its own with its own HERMES_HOME (the run's sandbox). The directory path, the general-plugin
 * path (`register(ctx)` registering the selected name) and a hermes-agent checkout's built-in
 * compressor are the bridge's to resolve; a failure is one line.
 */
export const pythonLoader: EngineLoader = {
  async load(candidate: EngineCandidate, context: LoaderContext): Promise<LoadedCandidate | null> {
    const mode = candidate.path === "general" ? "general" : (candidate.mode ?? "directory");
    const found = {
      name: context.name,
      manifestName: candidate.manifest?.name ?? context.name,
      version: candidate.manifest?.version ?? null,
      description: candidate.manifest?.description ?? "",
      searchTool: candidate.manifest?.searchTool ?? null,
      directory: candidate.location,
      entry: candidate.entry,
      bundled: candidate.bundled,
      language: "python" as const,
      mode,
    };
    let loaded;
    try {
      // Imported here: the bridge's client and the engine protocol are a player's to load only for a Python engine.
      const { loadPythonPlugin } = await import("../../plugins/python-plugin.ts");
      loaded = await loadPythonPlugin(found, {
        ...(context.runtime.python !== null ? { python: context.runtime.python } : {}),
        ...(context.runtime.hermesAgent !== null ? { hermesAgent: context.runtime.hermesAgent } : {}),
        ...(context.runtime.config !== null ? { config: context.runtime.config } : {}),
      });
    } catch (error) {
      throw new EngineLoadFailure(firstLine(error));
    }
    return { first: loaded.engine, notices: [], createFresh: (options) => loaded.createFresh(options) };
  },
};
