import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { extname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The file of a module beside `from` (an `import.meta.url`), with `from`'s own extension: `.ts`
 * when ctxbench runs from its sources, `.js` when it runs compiled. tsc rewrites the extensions
 * of imports, not of the strings given to `new URL`, so a module spawned or imported by path is
 * named without one: `siblingModule(import.meta.url, "../player/main")`.
 */
export function siblingModule(from: string, relativeWithoutExtension: string): string {
  return fileURLToPath(new URL(`${relativeWithoutExtension}${extname(fileURLToPath(from))}`, from));
}

/** Node's arguments to run a module file as a process: TypeScript through tsx, resolved from ctxbench itself. */
export function nodeArgumentsFor(file: string): string[] {
  return /\.[cm]?ts$/.test(file) ? ["--import", import.meta.resolve("tsx"), file] : [file];
}

const PACKAGE_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/**
 * The module file to start a process from. Compiled, `siblingModule`'s. From the sources, its
 * compiled twin in dist/ when dist/ is a build of exactly these sources (bin/built.mjs, the test
 * bin/ctxbench.mjs makes): the same code, but a process that starts without compiling TypeScript
 * through tsx and that reads the build's disk cache (a player from the sources took about 40 %
 * more CPU). Otherwise the source file itself.
 */
export function processModule(from: string, relativeWithoutExtension: string, root: string = PACKAGE_ROOT): string {
  const file = siblingModule(from, relativeWithoutExtension);
  if (!file.endsWith(".ts")) return file;
  const inside = relative(root, file);
  if (inside.startsWith("..")) return file;
  const twin = join(root, "dist", inside.replace(/\.ts$/, ".js"));
  return existsSync(twin) && distIsCurrent(root) ? twin : file;
}

const currentByRoot = new Map<string, boolean>();

function distIsCurrent(root: string): boolean {
  let current = currentByRoot.get(root);
  if (current === undefined) {
    // Only the sources reach here, and a checkout has bin/ beside them (the check bin/ctxbench.mjs makes).
    try {
      const { builtFromCurrentSources } = createRequire(import.meta.url)(join(root, "bin/built.mjs")) as { builtFromCurrentSources(root: string): boolean };
      current = builtFromCurrentSources(root);
    } catch {
      current = false;
    }
    currentByRoot.set(root, current);
  }
  return current;
}
