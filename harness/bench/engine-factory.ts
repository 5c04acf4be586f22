import type { ContextEngine } from "../contract/context-engine.ts";

/** What a benchmark suite needs of an engine: its name and fresh instances. */
export interface EngineFactory {
  name: string;
  create(): ContextEngine;
}
