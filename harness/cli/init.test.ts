import { describe, expect, it } from "vitest";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { mkdir, symlink } from "node:fs/promises";
import { join } from "node:path";
import { scratchTreesPerTest } from "../plugins/test-support.ts";
import { engineClassName } from "./scaffold.ts";
import { PACKAGE_JSON, PACKAGE_ROOT } from "../util/package-root.ts";
import { runCli } from "./main.ts";
import { memoryIo } from "./test-io.ts";
import { parseResult } from "../result/index.ts";

const scratch = scratchTreesPerTest();
const NPM_INIT = { name: "author", version: "1.0.0", main: "index.js", scripts: { test: 'echo "Error: no test specified" && exit 1' }, type: "commonjs" };
const read = (dir: string, path: string) => readFileSync(join(dir, path), "utf8");

describe("ctxbench init", () => {
  it("scaffolds the plugin, its test, a tsconfig and a workflow, and adds the test tools to package.json", async () => {
    const dir = await scratch({ "package.json": JSON.stringify(NPM_INIT) });
    const io = memoryIo(dir);
    expect(await runCli(["init", "my-engine", "--no-install"], io), io.err()).toBe(0);
    for (const path of ["plugins/my-engine/plugin.yaml", "plugins/my-engine/index.ts", "plugins/my-engine/index.test.ts", "tsconfig.json", ".github/workflows/certify.yml"]) {
      expect(existsSync(join(dir, path)), path).toBe(true);
    }
    expect(read(dir, "plugins/my-engine/plugin.yaml")).toMatch(/^name: my-engine$/m);
    expect(read(dir, "plugins/my-engine/index.ts")).toMatch(/export class MyEngine extends ContextEngine \{\n {2}readonly name = "my-engine";/);
    expect(read(dir, "plugins/my-engine/index.test.ts")).toContain('describeConformance("plugins/my-engine");');
    expect(read(dir, ".github/workflows/certify.yml")).toContain("npx ctxbench certify --plugins plugins --engine my-engine --out ctxbench-results");
    const manifest = JSON.parse(read(dir, "package.json")) as typeof NPM_INIT & { devDependencies: Record<string, string>; scripts: Record<string, string> };
    expect(manifest.devDependencies).toEqual({
      "@types/node": PACKAGE_JSON.devDependencies!["@types/node"],
      typescript: PACKAGE_JSON.devDependencies!["typescript"],
      vitest: PACKAGE_JSON.devDependencies!["vitest"],
    });
    expect(manifest.scripts).toEqual({ test: "tsc --noEmit && vitest run", certify: "ctxbench certify --plugins plugins --engine my-engine" });
    expect(manifest.type).toBe("commonjs");
    expect(io.out()).toMatch(/Next:\n {2}npm install\n {2}npx ctxbench certify --plugins plugins --engine my-engine/);
    expect(io.err()).toContain("warning: package.json does not list ctxbench");
    expect(io.out() + io.err()).not.toContain("undefined");
  });

  it("writes an engine that certifies as generated", async () => {
    const dir = await scratch({ "package.json": JSON.stringify({ ...NPM_INIT, devDependencies: { ctxbench: "file:ctxbench" } }) });
    await mkdir(join(dir, "node_modules"));
    await symlink(PACKAGE_ROOT, join(dir, "node_modules/ctxbench"));
    expect(await runCli(["init", "fresh_engine", "--no-install"], memoryIo(dir))).toBe(0);
    const io = memoryIo(dir);
    expect(await runCli(["certify", "--plugins", "plugins", "--engine", "fresh_engine", "--no-isolate", "--format", "json"], io), io.err()).toBe(0);
    const [certification] = parseResult(io.out()).certifications;
    expect(certification?.verdict).toBe("certified");
    expect(certification?.checks.filter((check) => check.outcome !== "pass" && check.outcome !== "skipped")).toEqual([]);
  }, 300_000); // a full certification: well over vitest's 60 s on a loaded 2-core machine

  it("refuses to overwrite an engine's files without --force, writing nothing", async () => {
    const dir = await scratch({ "package.json": "{}", "plugins/taken/index.ts": "// mine\n" });
    const io = memoryIo(dir);
    expect(await runCli(["init", "taken", "--no-install"], io)).toBe(2);
    expect(io.err()).toBe(`ctxbench: ${join(dir, "plugins/taken/index.ts")} already exists; nothing written (--force overwrites)\n`);
    expect(existsSync(join(dir, "plugins/taken/plugin.yaml"))).toBe(false);
    expect(read(dir, "package.json")).toBe("{}");
    expect(await runCli(["init", "taken", "--no-install", "--force"], memoryIo(dir))).toBe(0);
    expect(read(dir, "plugins/taken/index.ts")).toContain("class TakenEngine");
  });

  it("keeps the project's own tsconfig, workflow and scripts", async () => {
    const dir = await scratch({ "package.json": JSON.stringify({ scripts: { test: "mocha" }, devDependencies: { vitest: "3.2.0" } }), "tsconfig.json": "{}\n", ".github/workflows/certify.yml": "mine\n" });
    const io = memoryIo(dir);
    expect(await runCli(["init", "--no-install"], io)).toBe(0);
    expect(read(dir, "tsconfig.json")).toBe("{}\n");
    expect(read(dir, ".github/workflows/certify.yml")).toBe("mine\n");
    expect(io.err()).toContain('kept your tsconfig.json (it must include "plugins"');
    const manifest = JSON.parse(read(dir, "package.json")) as { scripts: Record<string, string>; devDependencies: Record<string, string> };
    expect(manifest.scripts["test"]).toBe("mocha");
    expect(manifest.devDependencies["vitest"]).toBe("3.2.0");
    expect(existsSync(join(dir, "plugins/my-engine/index.ts"))).toBe(true);
  });

  it("refuses a name that is not a plugin directory name, and a package.json that is not JSON", async () => {
    for (const name of ["My Engine", "../up", "a/b", "9lives", "UPPER"]) {
      const io = memoryIo(await scratch({}));
      expect(await runCli(["init", name, "--no-install"], io)).toBe(2);
      expect(io.err()).toMatch(/^ctxbench: engine name .*: use lowercase letters and digits/);
    }
    const dir = await scratch({ "package.json": "{ nope" });
    const io = memoryIo(dir);
    expect(await runCli(["init", "--no-install"], io)).toBe(2);
    expect(io.err()).toMatch(/package\.json: not valid JSON/);
  });

  it("creates a package.json when there is none", async () => {
    const dir = await scratch({});
    writeFileSync(join(dir, ".keep"), "");
    expect(await runCli(["init", "--no-install"], memoryIo(dir))).toBe(0);
    expect(JSON.parse(read(dir, "package.json"))).toMatchObject({ private: true, type: "module", devDependencies: { vitest: expect.any(String) } });
  });

  it("names the class after the engine", () => {
    expect([engineClassName("my-engine"), engineClassName("lcm"), engineClassName("fresh_engine"), engineClassName("a2b")]).toEqual(["MyEngine", "LcmEngine", "FreshEngine", "A2bEngine"]);
  });
});
