/** The machine and the run a result describes (the effectful half: reads os, process and git). */
import { execFileSync } from "node:child_process";
import { realpathSync } from "node:fs";
import { arch, cpus, platform, release } from "node:os";
import { namedVersionSchema, type NamedVersion } from "../conformance/check-result.ts";
import { PACKAGE_JSON, PACKAGE_ROOT } from "../util/package-root.ts";
import { array, integer, nullable, object, oneOf, optional, string, type Infer } from "../util/schema.ts";

/** The bounds the parent enforced on the run, in ms: each one the command applied (a bound it had no use for is absent). */
export const runBoundsSchema = object({
  /** The whole run (`--max-time`). */
  maxTimeMs: integer({ minimum: 1 }),
  /** One scenario or probe (`--timeout`; for `run`, its one source), of the player's own time. */
  timeoutMs: optional(integer({ minimum: 1 })),
  /** Loading the engine in a player, up to its first answer. */
  loadTimeoutMs: integer({ minimum: 1 }),
  /** One bench suite for one engine. */
  suiteTimeoutMs: optional(integer({ minimum: 1 })),
});
export type RunBounds = Infer<typeof runBoundsSchema>;

export const runInfoSchema = object({
  /** ctxbench itself: its version. */
  tool: namedVersionSchema,
  /** `process.version`, e.g. "v20.20.2". */
  node: string(),
  /** e.g. "linux 6.1.0 x64". */
  os: string(),
  /** CPU model string. */
  cpu: string(),
  cores: integer({ minimum: 1 }),
  /** The ctxbench commit; null outside ctxbench's own git checkout. */
  gitSha: nullable(string()),
  seed: integer(),
  /** The command line that produced this result, so it can be rerun. */
  command: string(),
  /** Every engine this result speaks of, with its version. */
  engines: array(namedVersionSchema),
  /** Where the engines ran: player processes (the default), or this process (`--no-isolate`). */
  isolation: optional(oneOf(["players", "in-process"])),
  /** The bounds the run was held to (absent in results that ran no engine, and in older results). */
  bounds: optional(runBoundsSchema),
});
/** The machine and the run a result describes. */
export type RunInfo = Infer<typeof runInfoSchema>;

/**
 * HEAD of the git checkout whose top level is `cwd`, or null otherwise (or without git). An
 * installed ctxbench sits inside its user's checkout, whose commit is not ctxbench's.
 */
export function gitSha(cwd: string): string | null {
  try {
    const [top, sha] = execFileSync("git", ["rev-parse", "--show-toplevel", "HEAD"], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim().split("\n");
    if (top === undefined || realpathSync(top) !== realpathSync(cwd)) return null;
    return sha !== undefined && /^[0-9a-f]{40,64}$/.test(sha) ? sha : null;
  } catch {
    return null;
  }
}

export interface RunInfoInput {
  seed: number;
  /** The command line, e.g. `ctxbench certify --engine lcm --seed 7`. */
  command: string;
  engines: NamedVersion[];
  /** Where the engines ran; absent for a result that ran none. */
  isolation?: "players" | "in-process";
  bounds?: RunBounds;
  /** Where to look for the git checkout; the package's own directory by default. */
  cwd?: string;
}

export function collectRunInfo(input: RunInfoInput): RunInfo {
  const processors = cpus();
  return {
    tool: { name: PACKAGE_JSON.name, version: PACKAGE_JSON.version },
    node: process.version,
    os: `${platform()} ${release()} ${arch()}`,
    cpu: processors[0]?.model.trim() || "unknown",
    cores: Math.max(1, processors.length),
    gitSha: gitSha(input.cwd ?? PACKAGE_ROOT),
    seed: input.seed,
    command: input.command,
    engines: input.engines,
    ...(input.isolation !== undefined ? { isolation: input.isolation } : {}),
    ...(input.bounds !== undefined ? { bounds: input.bounds } : {}),
  };
}
