/** The machine and the run a result describes (the effectful half: reads os, process and git). */
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { arch, cpus, platform, release } from "node:os";
import type { NamedVersion, RunInfo } from "./result.ts";

const packageJson = createRequire(import.meta.url)("../package.json") as { name: string; version: string };

/** HEAD of the git checkout at `cwd`, or null outside one (or without git). */
export function gitSha(cwd: string): string | null {
  try {
    const sha = execFileSync("git", ["rev-parse", "HEAD"], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    return /^[0-9a-f]{40,64}$/.test(sha) ? sha : null;
  } catch {
    return null;
  }
}

export interface RunInfoInput {
  seed: number;
  /** The command line, e.g. `ctxbench certify --engine lcm --seed 7`. */
  command: string;
  engines: NamedVersion[];
  /** Where to look for the git checkout; the package's own directory by default. */
  cwd?: string;
}

export function collectRunInfo(input: RunInfoInput): RunInfo {
  const processors = cpus();
  return {
    tool: { name: packageJson.name, version: packageJson.version },
    node: process.version,
    os: `${platform()} ${release()} ${arch()}`,
    cpu: processors[0]?.model.trim() || "unknown",
    cores: Math.max(1, processors.length),
    gitSha: gitSha(input.cwd ?? new URL("..", import.meta.url).pathname),
    seed: input.seed,
    command: input.command,
    engines: input.engines,
  };
}
