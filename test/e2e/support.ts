import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The checkout under test. */
export const REPO = fileURLToPath(new URL("../../", import.meta.url));

export interface CliOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** Children get a clean environment: no npm_* variables from `npm test`, no colour, not CI. */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith("npm_")));
  return { ...env, NO_COLOR: "1", ...extra };
}

/** Run `ctxbench ARGS` as a process; resolves with its exit code and output, whatever the code. */
export function ctxbench(args: string[], options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {}): Promise<CliOutcome> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [join(REPO, "bin/ctxbench.mjs"), ...args],
      { cwd: options.cwd ?? REPO, env: childEnv(options.env), timeout: options.timeoutMs ?? 120_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== "number") return reject(error);
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
      },
    );
  });
}
