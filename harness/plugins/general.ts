import { resolve } from "node:path";
import { stat } from "node:fs/promises";
import { UsageError } from "../util/errors.ts";
import type { ContextEngine } from "../contract/context-engine.ts";
import { EngineCollector, importPluginModule } from "./instantiate.ts";
import { firstLine } from "./yaml-file.ts";

export interface GeneralPluginResult {
  /** The one engine in the slot, if any plugin registered one (REG-3). */
  engine: ContextEngine | null;
  warnings: string[];
}

/**
 * Run one general plugin's `register(ctx)`. The slot holds one engine: a second registration and a
 * non-engine are refused with a warning (REG-3). A missing file is a UsageError; a module that fails
 * to import, has no register(), or throws from it is a load failure the caller may fall back from.
 */
export async function runGeneralPlugin(file: string, cwd: string): Promise<GeneralPluginResult> {
  const path = resolve(cwd, file);
  await assertPluginModuleExists(path);
  const module = await importPluginModule(path);
  const register = module["register"];
  if (typeof register !== "function") throw new UsageError(`${path}: plugin module exports no register(ctx)`);
  const collector = new EngineCollector(path);
  try {
    await register(collector);
  } catch (error) {
    throw new UsageError(`${path}: register() threw: ${firstLine(error)}`);
  }
  return { engine: collector.engines[0] ?? null, warnings: collector.warnings };
}

export async function assertPluginModuleExists(path: string): Promise<void> {
  let isFile = false;
  try {
    isFile = (await stat(path)).isFile();
  } catch {
    isFile = false;
  }
  if (!isFile) throw new UsageError(`${path}: plugin module does not exist`);
}
