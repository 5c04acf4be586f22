import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { builtFromCurrentSources } from "../../bin/built.mjs";
import { processAlive } from "../../harness/util/process-alive.ts";
import { childEnv, REPO } from "./support.ts";

const run = promisify(execFile);

/** What goes into the package (package.json "files", the build's inputs). */
const PACKAGE_INPUTS = ["package.json", "package-lock.json", "tsconfig.json", "tsconfig.build.json", "require.cjs", "bin", "scripts", "templates", "harness", "engines", "scenarios", "reports", "bridge", "README.md"];
const CACHE = join(REPO, "node_modules/.cache/ctxbench-e2e");

export interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * npm as an engine author runs it, offline-first from the local cache, with no npm_* variables of
 * the `npm test` running this suite. better-sqlite3's install script finds a prebuilt binary in a
 * local-prebuilds directory (prebuild-install's documented option), made from the one this
 * checkout compiled, instead of compiling SQLite for a minute per install.
 */
export async function npmEnv(): Promise<NodeJS.ProcessEnv> {
  return childEnv({ npm_config_prefer_offline: "true", npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false", ...(await localPrebuilds()) });
}

/** Run a program in a directory; resolves with its exit code and output, whatever the code. */
export async function exec(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs = 600_000): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(file, args, { cwd, env, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failed.code !== "number") throw error;
    return { code: failed.code, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

/**
 * The package as `npm pack` makes it from this working tree, in a copy (so the checkout's own dist/
 * is never rebuilt under running tests): with the checkout's dist/ when that is a build of the
 * current sources, else built by the package's prepare script. Cached by the content
 * of its inputs, so test files (and reruns without changes) share one build.
 */
export async function packedTarball(): Promise<string> {
  const key = inputsDigest();
  const tarball = join(CACHE, `ctxbench-${key}.tgz`);
  if (existsSync(tarball)) return tarball;
  return withLock(join(CACHE, "pack.lock"), async () => {
    if (existsSync(tarball)) return tarball;
    const copy = mkdtempSync(join(tmpdir(), "ctxbench-pack-"));
    try {
      for (const input of PACKAGE_INPUTS) cpSync(join(REPO, input), join(copy, input), { recursive: true, filter: (source) => !/[\\/]node_modules$/.test(source) });
      symlinkSync(join(REPO, "node_modules"), join(copy, "node_modules"));
      const out = join(copy, "out");
      mkdirSync(out);
      // `npm test` has just built dist/ from these very sources (build --if-stale): pack that build
      // rather than compile it again. ci/install.sh, run by test/e2e/ci-action, still packs through the prepare script.
      const built = builtFromCurrentSources(REPO);
      if (built) cpSync(join(REPO, "dist"), join(copy, "dist"), { recursive: true });
      const packArgs = ["pack", ...(built ? ["--ignore-scripts"] : []), "--pack-destination", out];
      const packed = await exec("npm", packArgs, copy, childEnv(), 600_000); // tsc on a loaded 2-core machine
      if (packed.code !== 0) throw new Error(`npm pack failed (exit ${packed.code}):\n${packed.stderr}`);
      const [file] = readdirSync(out);
      if (!file) throw new Error("npm pack wrote no tarball");
      mkdirSync(CACHE, { recursive: true });
      renameSync(join(out, file), tarball);
      return tarball;
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
}

/** A checkout of ctxbench as `uses: …/ci@ref` gets it: this working tree's files (with ci/), no node_modules, no build. */
export function checkoutCopy(): string {
  const copy = mkdtempSync(join(tmpdir(), "ctxbench-checkout-"));
  for (const input of [...PACKAGE_INPUTS, "ci"]) cpSync(join(REPO, input), join(copy, input), { recursive: true, filter: (source) => !/[\\/]node_modules$/.test(source) });
  return copy;
}

function inputsDigest(): string {
  const hash = createHash("sha256");
  const visit = (path: string) => {
    const stats = statSync(path);
    if (stats.isDirectory()) {
      for (const name of readdirSync(path).sort()) if (name !== "node_modules") visit(join(path, name));
    } else {
      hash.update(`${relative(REPO, path)}\0`).update(readFileSync(path)).update("\0");
    }
  };
  for (const input of PACKAGE_INPUTS) visit(join(REPO, input));
  return hash.digest("hex").slice(0, 16);
}

/** prebuild-install's local-prebuilds directory holding this checkout's compiled better-sqlite3. */
async function localPrebuilds(): Promise<Record<string, string>> {
  const sqlite = join(REPO, "node_modules/better-sqlite3");
  const { version } = createRequire(import.meta.url)(join(sqlite, "package.json")) as { version: string };
  const directory = join(CACHE, "prebuilds");
  const file = join(directory, `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`);
  if (!existsSync(file)) {
    await withLock(join(CACHE, "prebuilds.lock"), async () => {
      if (existsSync(file)) return;
      await mkdir(directory, { recursive: true });
      const partial = `${file}.${process.pid}.partial`;
      const packed = await exec("tar", ["-czf", partial, "-C", sqlite, "build/Release/better_sqlite3.node"], REPO, childEnv());
      if (packed.code !== 0) throw new Error(`tar failed: ${packed.stderr}`);
      renameSync(partial, file);
    });
  }
  return { npm_config_better_sqlite3_local_prebuilds: directory };
}

/** One holder at a time across test processes: a directory made atomically, removed after; a holder that died is noticed by its pid. */
async function withLock<T>(lock: string, work: () => Promise<T>): Promise<T> {
  await mkdir(join(lock, ".."), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, "pid"), String(process.pid));
      break;
    } catch {
      let holder = 0;
      let age = 0;
      try {
        age = Date.now() - statSync(lock).mtimeMs;
        holder = Number(readFileSync(join(lock, "pid"), "utf8"));
      } catch {
        // just released, or its holder has not written its pid yet
      }
      if ((holder > 0 && !processAlive(holder)) || age > 15 * 60_000) rmSync(lock, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    return await work();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

