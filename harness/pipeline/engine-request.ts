// The engine part of a request, apart from plan.ts: the CLI selects the engine before it loads the checks.
import { discoverEngines } from "../plugins/discover.ts";
import type { SelectEngineOptions } from "../plugins/select.ts";

/** How the user selected the engine: what discovery needs, and the flags that repeat it. */
export interface EngineRequest {
  /** `--engine` (else `context.engine` of the config). */
  engine?: string;
  pluginDirs?: readonly string[];
  pluginModule?: string;
  configPath?: string;
  /** `--python`: the interpreter for Python plugins. */
  python?: string;
  /** `--hermes-agent`: a hermes-agent checkout (its plugins and built-in compressor become engines). */
  hermesAgent?: string;
}

export function selectOptions(request: EngineRequest & { cwd: string; bundledRoot?: string }): SelectEngineOptions {
  return {
    cwd: request.cwd,
    ...(request.engine !== undefined ? { name: request.engine } : {}),
    ...(request.pluginDirs !== undefined ? { pluginDirs: [...request.pluginDirs] } : {}),
    ...(request.pluginModule !== undefined ? { pluginModule: request.pluginModule } : {}),
    ...(request.configPath !== undefined ? { configPath: request.configPath } : {}),
    ...(request.bundledRoot !== undefined ? { bundledRoot: request.bundledRoot } : {}),
    ...(request.python !== undefined ? { python: request.python } : {}),
    ...(request.hermesAgent !== undefined ? { hermesAgent: request.hermesAgent } : {}),
  };
}

/**
 * The engine-selection flags as the user typed them, to repeat in recorded and replay commands;
 * `--engine` always names the selection (it may have come from config.yaml).
 */
export function selectionFlags(request: EngineRequest, selection: string): string[] {
  const flags: string[] = ["--engine", selection];
  for (const dir of request.pluginDirs ?? []) flags.push("--plugins", dir);
  if (request.pluginModule !== undefined) flags.push("--plugin-module", request.pluginModule);
  if (request.python !== undefined) flags.push("--python", request.python);
  if (request.hermesAgent !== undefined) flags.push("--hermes-agent", request.hermesAgent);
  return flags;
}

/** The engines a benchmark or comparison runs: the ones named (each once), else every bundled engine. */
export async function engineNames(cwd: string, names: readonly string[] | undefined, pluginDirs: readonly string[], hermesAgent?: string): Promise<string[]> {
  if (names !== undefined && names.length > 0) return [...new Set(names)];
  const found = await discoverEngines({ cwd, pluginDirs: [...pluginDirs], ...(hermesAgent !== undefined ? { hermesAgent } : {}) });
  return found.filter((engine) => engine.bundled).map((engine) => engine.name);
}
