/**
 * Builds the package: `tsc -p tsconfig.build.json` into dist/, then the files the compiled code
 * reads beside itself (plugin.yaml of the bundled engines, JSON schemas, the Python bridge).
 * `--if-compiler-present` (the prepare script) skips the build where TypeScript is not installed:
 * a production-only install of a checkout runs its sources through tsx instead. `--if-stale`
 * (npm test) skips it when dist/ is already a build of the current sources (bin/built.mjs).
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { isShippedAsset, SOURCE_ROOTS } from "./assets.ts";
import { builtFromCurrentSources, sourceFiles, STAMP } from "../bin/built.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DIST = join(ROOT, "dist");
const BUILD_ID = "build-id.json";

let tsc: string;
try {
  tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
} catch {
  if (process.argv.includes("--if-compiler-present")) {
    console.error("ctxbench: TypeScript is not installed (a production-only install): no build; bin/ctxbench.mjs runs the sources through tsx");
    process.exit(0);
  }
  throw new Error("TypeScript is not installed: run npm ci first");
}

// `npm test` after `npm ci` (whose prepare just built) or after an unchanged run: nothing to compile.
if (process.argv.includes("--if-stale") && builtFromCurrentSources(ROOT)) {
  console.error("ctxbench: dist/ is a build of the sources as they are; not rebuilt");
  process.exit(0);
}

// Taken before tsc reads anything: a source changed while the build runs leaves dist/ out of date.
const startedMs = Date.now();
const files = sourceFiles(ROOT, SOURCE_ROOTS);
rmSync(DIST, { recursive: true, force: true });
execFileSync(process.execPath, [tsc, "-p", join(ROOT, "tsconfig.build.json")], { stdio: "inherit" });
let copied = 0;
for (const root of SOURCE_ROOTS) {
  for (const file of walk(join(ROOT, root))) {
    const path = relative(ROOT, file);
    if (!isShippedAsset(path)) continue;
    mkdirSync(dirname(join(DIST, path)), { recursive: true });
    copyFileSync(file, join(DIST, path));
    copied += 1;
  }
}
// The build's id keys ctxbench's disk cache (harness/util/build-cache.ts): the digest of what was
// built and of package.json, so the same sources built twice share entries and any change does not.
const digest = createHash("sha256").update(readFileSync(join(ROOT, "package.json")));
for (const file of [...walk(DIST)].map((path) => relative(DIST, path)).sort()) digest.update(`\0${file}\0`).update(readFileSync(join(DIST, file)));
writeFileSync(join(DIST, BUILD_ID), `${JSON.stringify({ id: digest.digest("hex").slice(0, 32) })}\n`);
// Last, so an interrupted build leaves no stamp: bin/ctxbench.mjs then runs the sources.
writeFileSync(join(DIST, STAMP), `${JSON.stringify({ startedMs, roots: SOURCE_ROOTS, files })}\n`);
console.error(`ctxbench: built dist/ (${copied} asset files beside the compiled modules)`);

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "__pycache__") continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile()) yield path;
  }
}
