// Whether dist/ was compiled from the sources as they are now, so a checkout can run its compiled
// JavaScript (no TypeScript compiled at every start) and never an out-of-date build. The build
// (scripts/build.ts) writes dist/build-stamp.json: when it started and every source file it saw.
// dist/ is current when the same files exist and none changed since the build started.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

export const STAMP = "build-stamp.json";
/** Besides the source roots: the files that change what the build produces. */
export const BUILD_INPUTS = ["package.json", "tsconfig.json", "tsconfig.build.json"];
const SKIPPED_DIRECTORIES = new Set(["node_modules", "__pycache__", ".pytest_cache"]);

/** The source files under `roots` (relative to `root`, sorted), tests left out: they are not built. */
export function sourceFiles(root, roots) {
  const files = [];
  const walk = (relative) => {
    for (const entry of readdirSync(join(root, relative), { withFileTypes: true })) {
      const path = `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORIES.has(entry.name)) walk(path);
      } else if (entry.isFile() && !entry.name.endsWith(".test.ts")) files.push(path);
    }
  };
  for (const top of roots) walk(top);
  return files.sort();
}

/** True when `root`/dist holds a build of exactly the sources `root` has now. */
export function builtFromCurrentSources(root) {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(join(root, "dist", STAMP), "utf8"));
  } catch {
    return false;
  }
  if (typeof stamp?.startedMs !== "number" || !Array.isArray(stamp.roots) || !Array.isArray(stamp.files)) return false;
  try {
    const files = sourceFiles(root, stamp.roots);
    if (files.length !== stamp.files.length || files.some((file, index) => file !== stamp.files[index])) return false;
    return [...files, ...BUILD_INPUTS].every((file) => statSync(join(root, file)).mtimeMs < stamp.startedMs);
  } catch {
    return false;
  }
}
