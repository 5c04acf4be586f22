import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { loadedModuleOf, nodeArgumentsFor, processArguments, siblingModule } from "./module-file.ts";

describe("siblingModule", () => {
  it("keeps the caller's own extension: .ts from the sources, .js compiled", () => {
    expect(siblingModule("file:///pkg/harness/cli/certify.ts", "../player/main")).toBe("/pkg/harness/player/main.ts");
    expect(siblingModule("file:///pkg/dist/harness/cli/certify.js", "../player/main")).toBe("/pkg/dist/harness/player/main.js");
    expect(siblingModule("file:///pkg/x/a.mts", "./b")).toBe("/pkg/x/b.mts");
  });
});

describe("nodeArgumentsFor", () => {
  it("runs JavaScript as it is and TypeScript through tsx, which it resolves itself", () => {
    expect(nodeArgumentsFor("/pkg/dist/main.js")).toEqual(["/pkg/dist/main.js"]);
    const [flag, loader, file] = nodeArgumentsFor("/pkg/main.ts");
    expect([flag, file]).toEqual(["--import", "/pkg/main.ts"]);
    expect(loader).toMatch(/^file:\/\/.*\/tsx\//);
  });

  it("gives arguments that run a TypeScript module from any working directory", () => {
    const dir = mkdtempSync(join(tmpdir(), "ctxbench-module-file-"));
    const file = join(dir, "main.ts");
    writeFileSync(file, 'const answer: number = 42;\nconsole.log(answer, import.meta.url === process.argv[2]);\n');
    expect(execFileSync(process.execPath, [...nodeArgumentsFor(file), pathToFileURL(file).href], { cwd: dir, encoding: "utf8" })).toBe("42 true\n");
  });
});

describe("processArguments", () => {
  /** A checkout in miniature: one source module, its compiled twin, and the build stamp bin/built.mjs reads. */
  function checkout(stamped: "current" | "stale" | "none"): string {
    const root = mkdtempSync(join(tmpdir(), "ctxbench-process-module-"));
    for (const dir of ["bin", "harness/player", "dist/harness/player"]) mkdirSync(join(root, dir), { recursive: true });
    copyFileSync(fileURLToPath(new URL("../../bin/built.mjs", import.meta.url)), join(root, "bin/built.mjs"));
    for (const file of ["package.json", "tsconfig.json", "tsconfig.build.json", "harness/player/entry.ts", "harness/player/client.ts", "dist/harness/player/entry.js"]) writeFileSync(join(root, file), "");
    const built = Date.now() + 60_000;
    if (stamped !== "none") writeFileSync(join(root, "dist/build-stamp.json"), JSON.stringify({ startedMs: built, roots: ["harness"], files: ["harness/player/client.ts", "harness/player/entry.ts"] }));
    // A source saved after the build started: dist/ no longer holds this code.
    if (stamped === "stale") utimesSync(join(root, "harness/player/entry.ts"), new Date(built + 1000), new Date(built + 1000));
    return root;
  }
  const from = (root: string) => pathToFileURL(join(root, "harness/player/client.ts")).href;
  // A source module needs tsx; the compiled twin registers it itself when it is handed TypeScript, as the CLI's processes do.
  const throughTsx = (file: string) => ["--import", import.meta.resolve("tsx"), file];

  it("from the sources, starts the compiled twin (without tsx) when dist/ is a build of exactly these sources", () => {
    const root = checkout("current");
    expect(processArguments(from(root), "./entry", root)).toEqual([join(root, "dist/harness/player/entry.js")]);
  });

  it("starts the source file when a source changed since the build, when nothing was built, or when the twin is missing", () => {
    for (const state of ["stale", "none"] as const) {
      const root = checkout(state);
      expect(processArguments(from(root), "./entry", root)).toEqual(throughTsx(join(root, "harness/player/entry.ts")));
    }
    const root = checkout("current");
    expect(processArguments(from(root), "./missing", root)).toEqual(throughTsx(join(root, "harness/player/missing.ts")));
  });

  it("loadedModuleOf names the module such a process loads: the twin when dist/ is current, else the source", () => {
    const current = checkout("current");
    expect(loadedModuleOf(join(current, "harness/player/entry.ts"), current)).toBe(join(current, "dist/harness/player/entry.js"));
    expect(loadedModuleOf(join(current, "harness/player/missing.ts"), current)).toBe(join(current, "harness/player/missing.ts"));
    const stale = checkout("stale");
    expect(loadedModuleOf(join(stale, "harness/player/entry.ts"), stale)).toBe(join(stale, "harness/player/entry.ts"));
  });

  it("compiled, is the sibling module itself, without tsx", () => {
    expect(processArguments("file:///pkg/dist/harness/player/client.js", "./entry", "/pkg/")).toEqual(["/pkg/dist/harness/player/entry.js"]);
  });
});
