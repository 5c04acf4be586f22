import type { ContextEngine } from "../contract/context-engine.ts";
import type { SearchToolHint } from "./suites/search-tool.ts";

/** What a benchmark suite needs of an engine: its name and fresh instances. */
export interface EngineFactory {
  name: string;
  create(): ContextEngine;
  /** The search tool its plugin.yaml names for the quality suite (`ctxbench: {search_tool: NAME}`), if any. */
  searchTool?: SearchToolHint | null;
}
