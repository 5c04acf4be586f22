import { isContextEngine, type ContextEngine } from "../../contract/context-engine.ts";
import { EngineCollector, importPluginModule, instanceFromModule, type PluginModule } from "../../plugins/instantiate.ts";
import { firstLine } from "../../plugins/yaml-file.ts";
import type { EngineCandidate } from "../../plugins/spec.ts";
import { EngineLoadFailure, type EngineLoader, type LoadedCandidate, type LoaderContext } from "./registry.ts";

/**
 * TypeScript and JavaScript plugins, imported into the player (through tsx, so `.ts` needs no
 * build step). The directory path takes the entry module's register(ctx), else its first
 * ContextEngine subclass constructed with no arguments (REG-2). The general-plugin path runs
 * register(ctx) and takes the registered engine only if its name is the selection; each fresh
 * engine is then a `clone_for_agent()` of it, as the upstream agent takes a plugin's engine.
 */
export const typescriptLoader: EngineLoader = {
  async load(candidate: EngineCandidate, context: LoaderContext): Promise<LoadedCandidate | null> {
    // Only the faithfulness proof asks for it: a player otherwise never loads the engine protocol.
    if (context.runtime.typescriptOverProtocol === true) return (await import("./typescript-over-protocol.ts")).loadOverProtocol(candidate, context.name);
    const module = await importModule(candidate.entry);
    if (candidate.path === "directory") {
      const first = await instantiate(module, candidate.entry);
      return { first: first.engine, notices: first.warnings, createFresh: async () => (await instantiate(module, candidate.entry)).engine };
    }
    const register = module["register"];
    if (typeof register !== "function") return null;
    const collector = new EngineCollector(candidate.entry);
    try {
      await register(collector);
    } catch (error) {
      throw new EngineLoadFailure(`${candidate.entry}: register() threw: ${firstLine(error)}`);
    }
    const registered = collector.engines[0];
    if (registered === undefined || readName(registered, candidate.entry) !== context.name) return null;
    const first = cloneForAgent(registered, candidate.entry);
    return { first, notices: collector.warnings, createFresh: async () => cloneForAgent(registered, candidate.entry) };
  },
};

async function importModule(entry: string): Promise<PluginModule> {
  try {
    return await importPluginModule(entry);
  } catch (error) {
    throw new EngineLoadFailure(firstLine(error));
  }
}

async function instantiate(module: PluginModule, entry: string): Promise<{ engine: ContextEngine; warnings: string[] }> {
  try {
    return await instanceFromModule(module, entry);
  } catch (error) {
    throw new EngineLoadFailure(firstLine(error));
  }
}

function cloneForAgent(engine: ContextEngine, entry: string): ContextEngine {
  let clone: unknown;
  try {
    clone = engine.clone_for_agent();
  } catch (error) {
    throw new EngineLoadFailure(`${entry}: the registered engine could not be safely copied for this agent (clone_for_agent() threw: ${firstLine(error)})`);
  }
  if (!isContextEngine(clone)) throw new EngineLoadFailure(`${entry}: clone_for_agent() did not return a ContextEngine`);
  return clone;
}

/**
 * The engine's own name, or null when it is not a string. A getter that throws is a load
 * failure naming the file, as it was before isolation: no run can be attributed to the engine.
 */
export function readName(engine: ContextEngine, file: string): string | null {
  let name: unknown;
  try {
    name = engine.name;
  } catch (error) {
    throw new EngineLoadFailure(`${file}: reading the engine's name threw: ${firstLine(error)}`);
  }
  return typeof name === "string" ? name : null;
}
