import type { ContextEngine } from "../contract/context-engine.ts";
import type { SearchToolHint } from "./suites/search-tool.ts";

/**
 * What a benchmark suite needs of an engine: its name and fresh instances. An engine behind the
 * engine protocol (a Python plugin) is made asynchronously and holds a process: suites await
 * `create()` and let go of each instance with `disposeEngine` when done.
 */
export interface EngineFactory {
  name: string;
  create(): ContextEngine | Promise<ContextEngine>;
  /** The search tool its plugin.yaml names for the quality suite (`ctxbench: {search_tool: NAME}`), if any. */
  searchTool?: SearchToolHint | null;
}
