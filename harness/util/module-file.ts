import { extname } from "node:path";
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
