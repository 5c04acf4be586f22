import { ExtractiveSummarizer } from "../../engines/shared/extractive-summarizer.ts";
import type { ContextEngine } from "../contract/context-engine.ts";
import { PythonEngineFactory } from "../engine-protocol/hermes.ts";
import { summarizerLlm } from "../engine-protocol/llm.ts";
import type { DiscoveredEngine, FreshEngineOptions } from "./types.ts";

export interface PythonPluginOptions {
  /** `--python PATH`. */
  python?: string;
  /** `--hermes-agent DIR`: the checkout's real modules go on the engine's path. */
  hermesAgent?: string;
  /** The run's config the engine's `load_config()` returns (default: the engine selected). */
  config?: Record<string, unknown>;
}

export interface PythonPluginLoad {
  engine: ContextEngine;
  factory: PythonEngineFactory;
  createFresh(options?: FreshEngineOptions): Promise<ContextEngine>;
}

/**
 * A Python plugin through the Hermes bridge: each fresh engine is its own bridge process with its
 * own HERMES_HOME; the engine's `call_llm` is answered by the deterministic extractive summarizer
 * the bundled engines use. The first engine is made here, so a plugin that does not load is a
 * one-line EngineLoadError (exit 2) before any run starts.
 */
export async function loadPythonPlugin(found: DiscoveredEngine, options: PythonPluginOptions = {}): Promise<PythonPluginLoad> {
  const factory = new PythonEngineFactory(
    {
      directory: found.directory,
      selection: found.name,
      mode: found.mode ?? "directory",
      manifest: { name: found.manifestName, version: found.version, description: found.description },
      hermesAgent: found.mode === "builtin-compressor" ? found.directory : (options.hermesAgent ?? null),
    },
    {
      ...(options.python !== undefined ? { python: options.python } : {}),
      config: options.config ?? { context: { engine: found.name } },
      llm: summarizerLlm(new ExtractiveSummarizer()),
    },
  );
  const engine = await factory.createFresh();
  return { engine, factory, createFresh: (fresh = {}) => factory.createFresh(fresh) };
}
