import { nodeArgumentsFor, siblingModule } from "../util/module-file.ts";

/**
 * Node's arguments for a player process: the entry module beside this one, with this module's own
 * extension (`entry.ts` from the sources, through tsx; `entry.js` compiled). A compiled player
 * registers tsx itself when a TypeScript plugin is first loaded.
 */
export function playerArguments(role: PlayerRole = "play"): string[] {
  return [...nodeArgumentsFor(siblingModule(import.meta.url, "./entry")), ...(role === "bench" ? [BENCH_ROLE_FLAG] : [])];
}

/** A bench player runs bench suites too: it loads them at start, before any engine code, as it loads everything else. */
export type PlayerRole = "play" | "bench";
export const BENCH_ROLE_FLAG = "--bench";
