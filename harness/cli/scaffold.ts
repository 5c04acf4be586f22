import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_JSON, PACKAGE_ROOT } from "../util/package-root.ts";

const TEMPLATE_DIR = join(PACKAGE_ROOT, "templates/engine");

/** An engine name `init` accepts: a plugin directory name, lowercase, as Hermes plugins are named. */
export const ENGINE_NAME_PATTERN = /^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$/;

export interface ScaffoldFile {
  /** Relative to the project directory. */
  path: string;
  content: string;
  /** A file the project may already have its own of: kept, with a notice, instead of refusing. */
  keepExisting: boolean;
}

/** The files of a new engine project, from the template engine in templates/engine/. */
export function scaffoldFiles(name: string): ScaffoldFile[] {
  const fill = (template: string) => readFileSync(join(TEMPLATE_DIR, template), "utf8").replaceAll("__NAME__", name).replaceAll("__CLASS__", engineClassName(name));
  return [
    { path: `plugins/${name}/plugin.yaml`, content: fill("plugin.yaml"), keepExisting: false },
    { path: `plugins/${name}/index.ts`, content: fill("index.ts"), keepExisting: false },
    { path: `plugins/${name}/index.test.ts`, content: fill("index.test.ts"), keepExisting: false },
    { path: "tsconfig.json", content: fill("tsconfig.json"), keepExisting: true },
    { path: ".github/workflows/certify.yml", content: fill("certify.yml"), keepExisting: true },
  ];
}

/** `my-engine` → `MyEngine`, `lcm` → `LcmEngine`. */
export function engineClassName(name: string): string {
  const pascal = name
    .split(/[-_]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");
  return pascal.endsWith("Engine") ? pascal : `${pascal}Engine`;
}

/** The tools the scaffold's test, type-check and workflow run, at the versions ctxbench itself is tested with. */
export function scaffoldDevDependencies(): Record<string, string> {
  const own = PACKAGE_JSON.devDependencies ?? {};
  const pick = (name: string) => {
    const version = own[name];
    if (version === undefined) throw new Error(`ctxbench's package.json has no devDependency ${name}`);
    return version;
  };
  return { "@types/node": pick("@types/node"), typescript: pick("typescript"), vitest: pick("vitest") };
}
