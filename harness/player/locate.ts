import { processArguments } from "../util/module-file.ts";

/**
 * Node's arguments for a player process: the entry module beside this one (`processArguments`:
 * from the sources, dist/'s compiled entry when dist/ is a build of them). A compiled player
 * registers tsx itself when a TypeScript plugin is first loaded.
 */
export function playerArguments(role: PlayerRole = "play"): string[] {
  const entry = processArguments(import.meta.url, "./entry");
  return role === "bench" ? [...BENCH_V8_FLAGS, ...entry, BENCH_ROLE_FLAG] : entry;
}

/**
 * A bench player's young generation is fixed at V8's largest (two 16 MB semi-spaces) from the
 * start. V8 otherwise starts it at 1 MB and grows it as the process allocates, so a figure that
 * allocates (the no-op select_context's copies) depended on what the process had loaded before:
 * the same code read 1.05–1.09× the no-engine assembly with faker's every locale loaded and
 * 1.07–1.27× without them. A long-running agent's host has its young generation grown.
 */
export const BENCH_V8_FLAGS: readonly string[] = ["--min-semi-space-size=16", "--max-semi-space-size=16"];

/** A bench player runs bench suites too: it loads them at start, before any engine code, as it loads everything else. */
export type PlayerRole = "play" | "bench";
export const BENCH_ROLE_FLAG = "--bench";
