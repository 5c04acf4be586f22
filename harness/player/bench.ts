import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { findBenchSuite, type BenchEngine } from "../bench/registry.ts";
import type { PlayerEngine } from "./load.ts";

/**
 * Runs one bench suite in the player, for its engine (or none: the engine-free suites, and a
 * bench without engines). The parent combines the per-engine results of one suite.
 */
export async function runBenchCommand(
  suite: string,
  options: { seed: number; quick: boolean },
  loaded: PlayerEngine | null,
  sandbox: string,
): Promise<{ result: Record<string, unknown> | null; message: string | null }> {
  const found = findBenchSuite(suite);
  if (found === undefined) return { result: null, message: `unknown bench suite "${suite}"` };
  const engines: BenchEngine[] = loaded === null ? [] : [{ name: loaded.engine.selectedName, version: loaded.engine.version, create: () => loaded.engine.createFresh(), searchTool: loaded.searchTool }];
  const scratchDir = mkdtempSync(join(sandbox, `bench-${suite}-`));
  try {
    const result = await found.run({ engines, seed: options.seed, scratchDir, quick: options.quick });
    return { result: result as unknown as Record<string, unknown>, message: null };
  } catch (error) {
    return { result: null, message: `${suite}: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}` };
  } finally {
    rmSync(scratchDir, { recursive: true, force: true });
  }
}
