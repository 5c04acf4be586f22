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
 * Node's arguments to start a process from the module beside `from`. Compiled, that module. From
 * the sources, its compiled twin in dist/ when dist/ is a build of exactly these sources
 * (bin/built.mjs, the check bin/ctxbench.mjs makes): the same code, without compiling a hundred
 * modules through tsx at every start, and with the build's disk cache (tests certifying with
 * players from the sources took about 60 % more CPU). Like the process the CLI starts, the twin
 * registers tsx itself when it is handed TypeScript (harness/plugins/typescript-loader.ts):
 * registering it up front cost every process a loader thread, about 0.2 s of CPU. Else the
 * source module through tsx.
 */
export function processArguments(from: string, relativeWithoutExtension: string, root: string = PACKAGE_ROOT): string[] {
  const file = siblingModule(from, relativeWithoutExtension);
  if (!/\.[cm]?ts$/.test(file)) return [file];
  const twin = compiledTwin(file, root);
  return twin === undefined ? nodeArgumentsFor(file) : [twin];
}

/**
 * The module a process started by `processArguments` loads for a source file: dist/'s build of it
 * when dist/ is current, else the file itself. A test's plugin imports this, so that a compiled
 * player (which registers tsx only for TypeScript plugins) can load it and shares its modules.
 */
export function loadedModuleOf(file: string, root: string = PACKAGE_ROOT): string {
  return compiledTwin(file, root) ?? file;
}

/** dist/'s build of a source module, when there is one and dist/ is a build of the sources as they are. */
function compiledTwin(file: string, root: string): string | undefined {
  const inside = relative(root, file);
  if (inside.startsWith("..")) return undefined;
  const twin = join(root, "dist", inside.replace(/\.([cm]?)ts$/, ".$1js"));
  return existsSync(twin) && distIsCurrent(root) ? twin : undefined;
}

const currentByRoot = new Map<string, boolean>();

function distIsCurrent(root: string): boolean {
  let current = currentByRoot.get(root);
  if (current === undefined) {
    try {
      // Only the sources reach here, and a checkout has bin/ beside them.
      const { builtFromCurrentSources } = createRequire(import.meta.url)(join(root, "bin/built.mjs")) as { builtFromCurrentSources(root: string): boolean };
      current = builtFromCurrentSources(root);
    } catch {
      current = false;
    }
    currentByRoot.set(root, current);
  }
  return current;
}
