import type { Argv } from "yargs";
import { loadEngine } from "../plugins/load.ts";
import type { LoadedEngine } from "../plugins/types.ts";
import type { CliIo } from "./io.ts";

/** The engine-selection options every command that runs an engine shares. */
export interface EngineSelectionArgs {
  engine?: string | undefined;
  plugins?: string[] | undefined;
  "plugin-module"?: string | undefined;
  config?: string | undefined;
  python?: string | undefined;
  "hermes-agent"?: string | undefined;
}

export function withEngineSelection<T>(yargs: Argv<T>) {
  return yargs
    .option("engine", { type: "string", describe: 'Engine to use; overrides context.engine of config.yaml (default "compressor")' })
    .option("plugins", { type: "string", array: true, describe: "Another directory holding plugin directories (repeatable)" })
    .option("plugin-module", { type: "string", describe: "A general plugin whose register(ctx) may call ctx.register_context_engine()" })
    .option("config", { type: "string", describe: "The config.yaml to read context.engine from (default ./config.yaml)" })
    .option("python", { type: "string", describe: "The Python interpreter for Python plugins (3.10 or later; default python3 on PATH)" })
    .option("hermes-agent", {
      type: "string",
      describe: "A hermes-agent checkout: its context-engine plugins and its built-in ContextCompressor (as \"compressor\") become engines; only LLM and network seams are stubbed",
    });
}

/** The engine-selection arguments again, for a child process (a worker) that selects the same engine. */
export function engineSelectionArgv(args: EngineSelectionArgs): string[] {
  const argv: string[] = [];
  if (args.engine !== undefined) argv.push("--engine", args.engine);
  for (const dir of args.plugins ?? []) argv.push("--plugins", dir);
  if (args["plugin-module"] !== undefined) argv.push("--plugin-module", args["plugin-module"]);
  if (args.config !== undefined) argv.push("--config", args.config);
  if (args.python !== undefined) argv.push("--python", args.python);
  if (args["hermes-agent"] !== undefined) argv.push("--hermes-agent", args["hermes-agent"]);
  return argv;
}

/**
 * Load the engine the arguments select. `strict` (certify, run) turns "the engine you named failed to
 * load" into exit 2 instead of the host's fallback to the compressor; warnings go to stderr.
 */
export async function loadSelectedEngine(io: CliIo, args: EngineSelectionArgs, options: { strict: boolean }): Promise<LoadedEngine> {
  const loaded = await loadEngine({
    cwd: io.cwd,
    ...(args.engine !== undefined ? { name: args.engine } : {}),
    ...(args.plugins !== undefined ? { pluginDirs: args.plugins } : {}),
    ...(args["plugin-module"] !== undefined ? { pluginModule: args["plugin-module"] } : {}),
    ...(args.config !== undefined ? { configPath: args.config } : {}),
    ...(args.python !== undefined ? { python: args.python } : {}),
    ...(args["hermes-agent"] !== undefined ? { hermesAgent: args["hermes-agent"] } : {}),
    strict: options.strict,
  });
  for (const warning of loaded.warnings) io.stderr(`warning: ${warning}\n`);
  return loaded;
}
