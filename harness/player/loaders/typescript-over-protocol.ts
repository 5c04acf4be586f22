import { NodeEngineFactory } from "../../conformance/faithfulness/node-engines.ts";
import type { EngineCandidate } from "../../plugins/spec.ts";
import { firstLine } from "../../plugins/yaml-file.ts";
import { EngineLoadFailure, type LoadedCandidate } from "./registry.ts";

/**
 * A TypeScript/JavaScript plugin directory behind the engine protocol: the Node adapter loads it
 * in a process of its own (its register(ctx), else its first ContextEngine subclass) and the
 * player plays RemoteEngines, as it does a Python plugin's. Only the faithfulness proof asks for
 * it (`EngineRuntime.typescriptOverProtocol`): certified both ways, an engine must get the same outcomes.
 */
export async function loadOverProtocol(candidate: EngineCandidate, name: string): Promise<LoadedCandidate> {
  if (candidate.path !== "directory") throw new EngineLoadFailure(`${candidate.location}: over the engine protocol only a plugin's own directory is loaded (this is a ${candidate.path} candidate)`);
  const factory = new NodeEngineFactory({ entry: candidate.entry, selection: name, directory: candidate.location });
  let first;
  try {
    first = await factory.createFresh();
  } catch (error) {
    await factory.dispose();
    throw new EngineLoadFailure(firstLine(error));
  }
  return { first, notices: [`${name} is played behind the engine protocol (the Node adapter), not in the player`], createFresh: () => factory.createFresh() };
}
