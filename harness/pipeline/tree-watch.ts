import { fstatSync, lstatSync, readdirSync, type Stats } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve, sep } from "node:path";

/** Directory names never watched: dependencies, version control, caches, ctxbench's own output. */
const SKIPPED_NAMES = new Set(["node_modules", ".git", "__pycache__", ".ctxbench", "ctxbench-report", "ctxbench-repro", ".pytest_cache", ".venv"]);
/** Entries a snapshot keeps at most; a larger tree is watched up to there. */
const MAX_ENTRIES = 50_000;

export interface WatchedRoot {
  path: string;
  /**
   * Whether a file that appears counts. In the working directory only changes to what was there
   * count (other processes may add files beside a run); in the engine's own plugin directories
   * anything new counts too.
   */
  additions: boolean;
}

export interface TreeSnapshot {
  roots: WatchedRoot[];
  entries: Map<string, string>;
  truncated: boolean;
}

/**
 * What the user's tree looks like (path → kind, size and modification time), for detecting an
 * engine that writes outside its sandbox: the parent takes one before the players start and one
 * after they end. `skip` holds absolute paths left out (the run's sandbox, the command's outputs).
 */
export function snapshotTrees(roots: readonly WatchedRoot[], skip: readonly string[]): TreeSnapshot {
  // Watched from above (a run started in /tmp or /), the temporary directory belongs to every
  // process on the machine; a root inside it (a project kept there) is watched as any other.
  const temporary = resolve(tmpdir());
  const skipped = [...skip.map((path) => resolve(path)), ...(roots.some((root) => isWithin(temporary, resolve(root.path))) ? [temporary] : [])];
  const entries = new Map<string, string>();
  let truncated = false;
  const streams = ownStreamFiles();
  const isSkipped = (path: string) => skipped.some((root) => isWithin(path, root));
  const walk = (directory: string) => {
    let names: string[];
    try {
      names = readdirSync(directory).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (entries.size >= MAX_ENTRIES) {
        truncated = true;
        return;
      }
      if (SKIPPED_NAMES.has(name)) continue;
      const path = join(directory, name);
      if (isSkipped(path)) continue;
      let stats: Stats;
      try {
        stats = lstatSync(path);
      } catch {
        continue;
      }
      if (streams.has(`${stats.dev}:${stats.ino}`)) continue;
      entries.set(path, stats.isDirectory() ? "dir" : `${stats.isSymbolicLink() ? "link" : "file"}:${stats.size}:${stats.mtimeMs}`);
      if (stats.isDirectory()) walk(path);
    }
  };
  const unique = [...new Map(roots.map((root) => [resolve(root.path), { ...root, path: resolve(root.path) }])).values()];
  for (const root of unique) if (!isSkipped(root.path)) walk(root.path);
  return { roots: unique, entries, truncated };
}

/**
 * The files this process's stdin, stdout and stderr are (`> result.json 2> log` in the project):
 * ctxbench writes them itself, so they are not an engine's writes. As device:inode.
 */
function ownStreamFiles(): Set<string> {
  const files = new Set<string>();
  for (const fd of [0, 1, 2]) {
    try {
      const stats = fstatSync(fd);
      if (stats.isFile()) files.add(`${stats.dev}:${stats.ino}`);
    } catch {
      // A closed descriptor is no file.
    }
  }
  return files;
}

/** Whether `path` is `root` or lies under it. */
function isWithin(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** Paths changed, removed or (under roots that count additions) added between two snapshots, sorted. */
export function changedPaths(before: TreeSnapshot, after: TreeSnapshot): Array<{ path: string; change: "changed" | "removed" | "added" }> {
  const changes: Array<{ path: string; change: "changed" | "removed" | "added" }> = [];
  for (const [path, entry] of before.entries) {
    const now = after.entries.get(path);
    if (now === undefined) {
      if (!after.truncated) changes.push({ path, change: "removed" });
    } else if (now !== entry && entry !== "dir") changes.push({ path, change: "changed" });
  }
  const countsAdditions = (path: string) => before.roots.some((root) => root.additions && (path === root.path || path.startsWith(root.path + sep)));
  for (const path of after.entries.keys()) {
    if (!before.entries.has(path) && !before.truncated && countsAdditions(path)) changes.push({ path, change: "added" });
  }
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
