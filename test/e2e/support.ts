import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { builtFromCurrentSources } from "../../bin/built.mjs";

/** The checkout under test. */
export const REPO = fileURLToPath(new URL("../../", import.meta.url));

const COMPILED = builtFromCurrentSources(REPO);

/**
 * The engine contract module of the ctxbench under test, for a JavaScript plugin outside the
 * package to import by path: compiled when bin/ctxbench.mjs runs dist/ (a plain-Node player loads
 * a JavaScript plugin without a TypeScript loader), else the source.
 */
export const CONTRACT_MODULE = COMPILED ? join(REPO, "dist/harness/contract/context-engine.js") : join(REPO, "harness/contract/context-engine.ts");

/**
 * What `import "ctxbench"` is for a plugin outside the package (where the name does not resolve),
 * by path: the compiled package when bin/ctxbench.mjs runs dist/, so the plugin shares the player's
 * modules instead of compiling a second copy of the harness through tsx; else the sources.
 */
export const PACKAGE_MODULE = COMPILED ? join(REPO, "dist/harness/index.js") : join(REPO, "harness/index.ts");

export interface CliOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * ctxbench's disk cache (scenarios built once per build and seed) for the processes the tests
 * start: inside the checkout rather than the home directory of whoever runs the suite.
 */
export const E2E_CACHE_DIR = join(REPO, "node_modules/.cache/ctxbench-e2e/cache");

/** Children get a clean environment: no npm_* variables from `npm test`, no colour, not CI. */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith("npm_")));
  return { CTXBENCH_CACHE_DIR: E2E_CACHE_DIR, ...env, NO_COLOR: "1", ...extra };
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
