import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * A disk cache of what one build of ctxbench computes the same way every time (catalogue
 * scenarios), so each command does not redo it. Entries live under
 * `<root>/<kind>/<build id>/`: the build id is the digest of the compiled files
 * (dist/build-id.json, written by scripts/build.ts), so any change to the code that made an entry
 * makes a new directory and no stale entry is ever read. Running from the sources there is no
 * build id and nothing is cached.
 *
 * The root is `CTXBENCH_CACHE_DIR` (`off` turns the cache off), else `$XDG_CACHE_HOME/ctxbench`,
 * else `~/.cache/ctxbench`. Every failure to read or write is a miss: the cache can only save time.
 */

/** Directories of other builds kept beside the current one (a checkout switching branches). */
const OTHER_BUILDS_KEPT = 3;

let written = 0;

const BUILD_ID = /^[0-9a-f]{16,64}$/;

const BUILD_ID_FILE = fileURLToPath(new URL("../../build-id.json", import.meta.url));

/** This build's id, or undefined when this module is not part of a build (sources through tsx). */
export function currentBuildId(file: string = BUILD_ID_FILE): string | undefined {
  try {
    const { id } = JSON.parse(readFileSync(file, "utf8")) as { id?: unknown };
    return typeof id === "string" && BUILD_ID.test(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

/** Where cache entries go, before the kind and build: undefined when the cache is off. */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const given = env["CTXBENCH_CACHE_DIR"];
  if (given !== undefined && given !== "") return given === "off" ? undefined : given;
  const xdg = env["XDG_CACHE_HOME"];
  if (xdg !== undefined && xdg.startsWith("/")) return join(xdg, "ctxbench");
  try {
    return join(homedir(), ".cache", "ctxbench");
  } catch {
    return undefined;
  }
}

/** The directory of `kind`'s entries for this build, or undefined when nothing is cached. */
// This build's own id, read once: a certification looks its scenarios up one by one.
let ownBuildId: { id: string | undefined } | undefined;

export function buildCacheDirectory(kind: string, env: NodeJS.ProcessEnv = process.env, buildId: string | undefined = (ownBuildId ??= { id: currentBuildId() }).id): string | undefined {
  const root = cacheRoot(env);
  return root === undefined || buildId === undefined ? undefined : join(root, kind, buildId);
}

export function readCacheFile(directory: string, name: string): string | undefined {
  return readCacheBytes(directory, name)?.toString("utf8");
}

export function readCacheBytes(directory: string, name: string): Buffer | undefined {
  try {
    return readFileSync(join(directory, name));
  } catch {
    return undefined;
  }
}

/**
 * Writes an entry under a temporary name and renames it into place, so a reader sees a whole
 * entry or none (two processes writing the same entry write the same bytes). The first entry of
 * a build prunes the directories of older builds of that kind: only siblings named as build ids
 * are ever removed, and only when `directory` itself is named as one.
 */
export function writeCacheFile(directory: string, name: string, data: string | Uint8Array): void {
  try {
    let created = false;
    try {
      statSync(directory);
    } catch {
      mkdirSync(directory, { recursive: true });
      created = true;
    }
    const temporary = join(directory, `.${name}.${process.pid}.${++written}.tmp`);
    writeFileSync(temporary, data);
    renameSync(temporary, join(directory, name));
    if (created) pruneOtherBuilds(dirname(directory), basename(directory));
  } catch {
    // a read-only or full disk: the entry is computed again next time
  }
}

function pruneOtherBuilds(kindDirectory: string, currentName: string): void {
  if (!BUILD_ID.test(currentName)) return;
  const others = readdirSync(kindDirectory, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== currentName && BUILD_ID.test(entry.name))
    .map((entry) => ({ path: join(kindDirectory, entry.name), mtimeMs: statSync(join(kindDirectory, entry.name)).mtimeMs }))
    .sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const old of others.slice(OTHER_BUILDS_KEPT)) rmSync(old.path, { recursive: true, force: true });
}
