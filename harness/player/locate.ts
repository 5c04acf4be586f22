import { nodeArgumentsFor, siblingModule } from "../util/module-file.ts";

/**
 * Node's arguments for a player process: the entry module beside this one, with this module's own
 * extension (`entry.ts` from the sources, through tsx; `entry.js` compiled). A compiled player
 * registers tsx itself when a TypeScript plugin is first loaded.
 */
export function playerArguments(): string[] {
  return nodeArgumentsFor(siblingModule(import.meta.url, "./entry"));
}
