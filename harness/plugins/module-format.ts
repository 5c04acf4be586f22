import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";

export type ModuleFormat = "module" | "commonjs";

/**
 * How a plugin file is run: `.mjs`/`.mts` as ES modules, `.cjs`/`.cts` as CommonJS, and `.js`/`.ts`
 * by the `type` of the nearest package.json (`npm init -y` writes "commonjs"). Where no package.json
 * says, a `.ts` file is CommonJS (as tsx compiles it) and a `.js` file is left to `import()`, which
 * decides by its syntax as Node does.
 */
export function moduleFormat(file: string): ModuleFormat {
  if (/\.m[jt]s$/.test(file)) return "module";
  if (/\.c[jt]s$/.test(file)) return "commonjs";
  return packageType(dirname(file)) ?? (file.endsWith(".js") ? "module" : "commonjs");
}

export function isTypeScript(file: string): boolean {
  return /\.[cm]?ts$/.test(file);
}

function packageType(start: string): ModuleFormat | null {
  for (let dir = start; ; dir = dirname(dir)) {
    let text: string | null = null;
    try {
      text = readFileSync(join(dir, "package.json"), "utf8");
    } catch {
      // no package.json here: look further up
    }
    if (text !== null) {
      let type: unknown;
      try {
        type = (JSON.parse(text) as { type?: unknown }).type;
      } catch {
        return null; // Node itself fails on it, with its own message, when the module loads
      }
      return type === "module" ? "module" : type === "commonjs" ? "commonjs" : null;
    }
    if (dirname(dir) === dir) return null;
  }
}
