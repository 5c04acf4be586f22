import type { Options } from "yargs";
import { DEFAULT_RUN_TIMEOUT_MS } from "../util/run-timeout.ts";
import { DEFAULT_MAX_TIME_MS } from "../pipeline/bounds.ts";
import type { EngineRequest } from "../pipeline/engine-request.ts";
import { UsageError } from "../util/errors.ts";
import { parseCheckSelector, parseEach, parseName, parseNumber, parsePath, parseScenarioName, parseSeed, parseTimerMs, TIMER_MAX_MS } from "./option-values.ts";

// Every option more than one command shares, declared once. A command spreads the groups it
// takes into its own `options` object, so yargs infers the handler's argument types from them.

/** Selecting one engine (certify, run). */
export const engineSelection = {
  engine: { type: "string", coerce: (raw: unknown) => parseName("--engine", raw), describe: 'Engine to use; overrides context.engine of config.yaml (default "compressor"); bundled:NAME names the bundled engine when a plugin of yours has its name' },
  plugins: { type: "string", array: true, coerce: (raw: unknown) => parseEach("--plugins", raw, parsePath), describe: "Another directory holding plugin directories (repeatable)" },
  "plugin-module": { type: "string", coerce: (raw: unknown) => parsePath("--plugin-module", raw), describe: "A general plugin whose register(ctx) may call ctx.register_context_engine()" },
  config: { type: "string", coerce: (raw: unknown) => parsePath("--config", raw), describe: "The config.yaml to read context.engine from (default ./config.yaml)" },
  python: { type: "string", coerce: (raw: unknown) => parsePath("--python", raw), describe: "The Python interpreter for Python plugins (3.10 or later; default python3 on PATH)" },
  "hermes-agent": {
    type: "string",
    coerce: (raw: unknown) => parsePath("--hermes-agent", raw),
    describe: 'A hermes-agent checkout: its context-engine plugins and its built-in ContextCompressor (as "compressor") become engines; only LLM and network seams are stubbed',
  },
} as const satisfies Record<string, Options>;

/** Selecting several engines (compare, bench). */
export const enginesSelection = {
  engine: { type: "string", array: true, coerce: (raw: unknown) => (Array.isArray(raw) ? raw : [raw]).map((value) => parseName("--engine", value)), describe: "Engine to use (repeatable; default: every bundled engine); bundled:NAME names the bundled engine when a plugin of yours has its name" },
  plugins: engineSelection.plugins,
  python: engineSelection.python,
  "hermes-agent": engineSelection["hermes-agent"],
} as const satisfies Record<string, Options>;

/** The checks to run (certify, compare). */
export const checksOption = {
  checks: { type: "string", array: true, coerce: (raw: unknown) => parseEach("--checks", raw, parseCheckSelector), describe: "Check ids, rules or prefixes to run (e.g. CMP-2, CMP-2/orphaned-result, THR); default all" },
} as const satisfies Record<string, Options>;

/** The catalogue scenarios the checks play (certify, compare): a quicker run while fixing what one scenario shows. */
export const scenariosOption = {
  scenarios: {
    type: "string",
    array: true,
    coerce: (raw: unknown) => {
      const names = parseEach("--scenarios", raw, parseScenarioName);
      // Without a name it would play the probes alone: more likely a slip than a wish.
      if (names.length === 0) throw new UsageError("--scenarios needs a catalogue scenario name (ctxbench scenarios list)");
      return names;
    },
    describe: "Play only these catalogue scenarios (names from ctxbench scenarios list); the checks' probes still run; default every scenario the checks read",
  },
} as const satisfies Record<string, Options>;

export const seedOption = {
  seed: { type: "string", coerce: (raw: unknown) => parseSeed("--seed", raw), describe: "Seed of every scenario, probe and generated transcript (default 1)" },
} as const satisfies Record<string, Options>;

/** Several seeds in one certification: every scenario and probe is played under each. */
export const seedsOption = {
  seeds: { type: "string", describe: "Seeds to play every scenario and probe under, comma-separated (e.g. 1,2,3,4,5), instead of --seed; a failure names the seed that shows it" },
} as const satisfies Record<string, Options>;

/** `--max-time`, with the default of the command (the main job certifies and benchmarks every engine). */
export const maxTimeOption = (defaultSeconds: number) =>
  ({
    type: "string",
    default: defaultSeconds,
    coerce: (raw: unknown) => parseNumber("--max-time", raw, { above: 0, max: Math.floor(TIMER_MAX_MS / 1000) }),
    describe: "Limit of the whole run in seconds; what finished is reported, the rest times out",
  }) as const satisfies Options;

/** The bounds the parent enforces on the players (certify, compare, bench, run). */
export const boundOptions = {
  timeout: { type: "string", default: DEFAULT_RUN_TIMEOUT_MS, coerce: (raw: unknown) => parseTimerMs("--timeout", raw), describe: "Limit of one scenario or probe run in ms of the player's own time (time spent waiting for a CPU other processes hold does not count); its checks time out with it" },
  "max-time": maxTimeOption(DEFAULT_MAX_TIME_MS / 1000),
  isolate: {
    type: "boolean",
    default: true,
    describe: "Run the engine in player processes, so one that never returns control or ends its process costs its runs, not the command; --no-isolate runs it in this process (for a debugger)",
  },
} as const satisfies Record<string, Options>;

export const quietOption = {
  quiet: { type: "boolean", default: false, describe: "No progress lines (also quiet when CI=true or not on a terminal)" },
} as const satisfies Record<string, Options>;

/** A seed given on the command line (range-checked when parsed, see option-values.ts). */
export function seedOf(seed: number | undefined): number | undefined {
  return seed;
}

/** The seeds of `--seed` or `--seeds` (not both), checked; undefined when neither is given. */
export function seedsOf(seed: number | undefined, seeds: string | undefined): number[] | undefined {
  if (seeds === undefined) {
    const one = seedOf(seed);
    return one === undefined ? undefined : [one];
  }
  if (seed !== undefined) throw new UsageError("give --seed or --seeds, not both");
  const words = seeds.split(",").map((word) => word.trim());
  if (words.some((word) => !/^-?\d+$/.test(word) || !Number.isSafeInteger(Number(word)))) throw new UsageError(`--seeds must be comma-separated integers (e.g. 1,2,3), got ${JSON.stringify(seeds)}`);
  return [...new Set(words.map(Number))];
}

/** The bounds given on the command line, in the pipeline's units (range-checked when parsed). */
export function boundsOf(args: { timeout: number; "max-time": number }): { timeoutMs: number; maxTimeMs: number } {
  return { timeoutMs: args.timeout, maxTimeMs: maxTimeOf(args["max-time"]) };
}

/** `--max-time` in ms. */
export function maxTimeOf(seconds: number): number {
  return Math.max(1, Math.round(seconds * 1000));
}

/** `--python` and `--hermes-agent`, as the pipeline takes them. */
export function pythonRuntimeOf(args: { python?: string | undefined; "hermes-agent"?: string | undefined }): { python?: string; hermesAgent?: string } {
  return { ...(args.python !== undefined ? { python: args.python } : {}), ...(args["hermes-agent"] !== undefined ? { hermesAgent: args["hermes-agent"] } : {}) };
}

/** The engine-selection arguments of one command, as the pipeline takes them. */
export function engineRequestOf(args: {
  engine?: string | undefined;
  plugins?: string[] | undefined;
  "plugin-module"?: string | undefined;
  config?: string | undefined;
  python?: string | undefined;
  "hermes-agent"?: string | undefined;
}): EngineRequest {
  return {
    ...(args.engine !== undefined ? { engine: args.engine } : {}),
    ...(args.plugins !== undefined ? { pluginDirs: args.plugins } : {}),
    ...(args["plugin-module"] !== undefined ? { pluginModule: args["plugin-module"] } : {}),
    ...(args.config !== undefined ? { configPath: args.config } : {}),
    ...pythonRuntimeOf(args),
  };
}
