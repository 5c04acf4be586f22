import { access } from "node:fs/promises";
import { join, resolve } from "node:path";
import { UsageError } from "../util/errors.ts";
import { DEFAULT_ENGINE } from "./types.ts";
import { readYamlMapping } from "./yaml-file.ts";

export const CONFIG_FILE = "config.yaml";

/**
 * The engine `context.engine` selects (REG-1): the default, and the value when the key or the
 * whole file is absent or empty, is the built-in compressor. A path passed explicitly must exist.
 */
export async function readSelectedEngine(cwd: string, configPath?: string): Promise<string> {
  const file = configPath === undefined ? join(cwd, CONFIG_FILE) : resolve(cwd, configPath);
  if (configPath === undefined && !(await exists(file))) return DEFAULT_ENGINE;
  const data = await readYamlMapping(file);
  const context = data?.["context"];
  if (context === undefined || context === null) return DEFAULT_ENGINE;
  if (typeof context !== "object" || Array.isArray(context)) throw new UsageError(`${file}: "context" must be a mapping`);
  const engine = (context as Record<string, unknown>)["engine"];
  if (engine === undefined || engine === null || engine === "") return DEFAULT_ENGINE;
  if (typeof engine !== "string") throw new UsageError(`${file}: "context.engine" must be an engine name`);
  return engine.trim() === "" ? DEFAULT_ENGINE : engine.trim();
}

/**
 * The whole config as a Python engine's `load_config()` returns it (upstream reads the user's
 * config.yaml), with `context.engine` the engine actually selected (an `--engine` given wins):
 * null when there is no config file.
 */
export async function readRunConfig(cwd: string, configPath: string | undefined, engine: string): Promise<Record<string, unknown> | null> {
  const file = configPath === undefined ? join(cwd, CONFIG_FILE) : resolve(cwd, configPath);
  if (configPath === undefined && !(await exists(file))) return null;
  const data = (await readYamlMapping(file)) ?? {};
  const context = data["context"];
  const ownContext = typeof context === "object" && context !== null && !Array.isArray(context) ? (context as Record<string, unknown>) : {};
  return { ...data, context: { ...ownContext, engine } };
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}
