/**
 * The packed tarball as an engine author uses it, in new projects of both package scopes: install,
 * `ctxbench init`, certify, vitest, import and require, and a strict consumer type-check.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO } from "./support.ts";
import { exec, npmEnv, packedTarball, type Outcome } from "./package-support.ts";

const EXTENSIONS = ["ts", "mts", "cts", "js", "mjs", "cjs"] as const;
const SCOPES = ["commonjs", "module"] as const;
// Whole processes (npm, certify, vitest, tsc) on a 2-core machine others share: bounded generously, never timed.
const TIMEOUT = 600_000;
type Scope = (typeof SCOPES)[number];

let tarball = "";
let env: NodeJS.ProcessEnv = {};
const projects: Partial<Record<Scope, string>> = {};
const cleanups: string[] = [];

beforeAll(async () => {
  [tarball, env] = await Promise.all([packedTarball(), npmEnv()]);
}, 300_000);
afterAll(async () => {
  for (const dir of cleanups) await rm(dir, { recursive: true, force: true });
});

const inProject = (scope: Scope) => (file: string, args: string[], timeoutMs?: number): Promise<Outcome> => exec(file, args, projects[scope]!, env, timeoutMs);
const ok = (outcome: Outcome) => expect(outcome.code, `${outcome.stdout}\n${outcome.stderr}`).toBe(0);

describe("the tarball", () => {
  it("holds the compiled package, its templates and the files its code reads, and no sources, tests or screenshots", async () => {
    const listing = await exec("tar", ["-tzf", tarball], REPO, env);
    ok(listing);
    const files = listing.stdout.trim().split("\n").map((line) => line.replace(/^package\//, ""));
    expect(files).toEqual(expect.arrayContaining([
      "package.json", "README.md", "require.cjs", "bin/ctxbench.mjs", "dist/harness/index.js", "dist/harness/index.d.ts", "dist/harness/cli/bin.js",
      "dist/harness/vitest/index.js", "dist/engines/lcm/plugin.yaml", "dist/engines/truncate/index.js", "dist/harness/result/result.schema.json",
      "dist/scenarios/scenario.schema.json", "templates/engine/index.ts", "templates/engine/certify.yml",
      "dist/bridge/hermes/main.py", "dist/bridge/hermes/shims/agent/context_engine.py", "dist/harness/conformance/faithfulness/node-adapter.mjs",
    ]));
    // Templates are the scaffold's files, and conformance/fixtures the broken engines the public API exports (FIXTURES).
    const shipped = files.filter((file) => !file.startsWith("templates/") && !file.startsWith("dist/harness/conformance/fixtures/"));
    expect(shipped.filter((file) => /(^|\/)(tests?|fixtures)\/|\.test\.|\.map$|\.png$|^harness\/|^docs\/|tsconfig|vitest\.config/.test(file))).toEqual([]);
  }, TIMEOUT);
});

for (const scope of SCOPES) {
  describe(`a new project of "type": "${scope}"`, () => {
    beforeAll(async () => {
      const dir = await mkdtemp(join(tmpdir(), `ctxbench-author-${scope}-`));
      cleanups.push(dir);
      projects[scope] = dir;
      if (scope === "commonjs") {
        ok(await exec("npm", ["init", "-y"], dir, env));
        const manifest = JSON.parse(await readFile(join(dir, "package.json"), "utf8")) as { type?: string };
        // npm 11 writes "type": "commonjs".
        expect(manifest.type ?? "commonjs").toBe("commonjs");
        ok(await exec("npm", ["install", "--save-dev", tarball], dir, env, 300_000));
      } else {
        // The same project with "type": "module". npm installs the same tree whatever the scope, so
        // it gets the commonjs project's installed dependencies (the tarball, and the test tools its
        // init installed) instead of a second install; everything after that runs here again.
        const commonjs = projects.commonjs!;
        for (const file of ["package-lock.json", "node_modules"]) await cp(join(commonjs, file), join(dir, file), { recursive: true, verbatimSymlinks: true });
        const manifest = JSON.parse(await readFile(join(commonjs, "package.json"), "utf8")) as Record<string, unknown>;
        await writeFile(join(dir, "package.json"), JSON.stringify({ ...manifest, type: "module" }, null, 2));
      }
    }, 300_000);

    it("npx ctxbench init my-engine scaffolds the engine (and installs the test tools where they are missing)", async () => {
      const init = await inProject(scope)("npx", ["--no", "ctxbench", "init", "my-engine"], 300_000);
      ok(init);
      expect(init.stdout).toContain("plugins/my-engine/index.ts");
      expect(await readdir(join(projects[scope]!, "plugins/my-engine"))).toEqual(["index.test.ts", "index.ts", "plugin.yaml"]);
      const devDependencies = Object.keys((JSON.parse(await readFile(join(projects[scope]!, "package.json"), "utf8")) as { devDependencies: Record<string, string> }).devDependencies);
      expect(devDependencies.sort()).toEqual(["@types/node", "ctxbench", "typescript", "vitest"]);
      for (const tool of ["vitest", "typescript", "@types/node"]) expect(existsSync(join(projects[scope]!, "node_modules", tool, "package.json"))).toBe(true);
    }, TIMEOUT);

    // A commonjs project made the same way (npm init, the tarball, ctxbench init) certifies its
    // scaffold and runs \`npx vitest run\` in ci-action.test.ts, through the workflow ctxbench init
    // writes; the module scope, which no workflow covers, runs both here.
    const certifiedByTheWorkflowTest = scope === "commonjs";

    if (!certifiedByTheWorkflowTest) it("certifies the scaffold as generated", async () => {
      const certify = await inProject(scope)("npx", ["--no", "ctxbench", "certify", "--plugins", "plugins", "--engine", "my-engine"]);
      ok(certify);
      expect(certify.stdout).toMatch(/my-engine 0\.1\.0: CERTIFIED/);
    }, TIMEOUT);

    if (!certifiedByTheWorkflowTest) it("npx vitest run is green: each check a test", async () => {
      const vitest = await inProject(scope)("npx", ["--no", "vitest", "run"]);
      ok(vitest);
      expect(vitest.stdout).toMatch(/Tests {2}\d+ passed \| \d+ skipped/);
    }, TIMEOUT);

    it("imports and requires ctxbench with plain node", async () => {
      const imported = await inProject(scope)(process.execPath, ["-e", 'import("ctxbench").then(m => console.log(typeof m.ContextEngine))']);
      expect(imported).toEqual({ code: 0, stdout: "function\n", stderr: "" });
      // require(esm): Node 20.19+ loads the ES module graph synchronously (it has no top-level await).
      const required = await inProject(scope)(process.execPath, ["--input-type=commonjs", "-e", 'const m = require("ctxbench"); console.log(typeof m.ContextEngine, typeof require("ctxbench/vitest").describeConformance)']);
      expect(required).toEqual({ code: 0, stdout: "function function\n", stderr: "" });
      // Where require of ES modules is off (older Node), the error says what to do instead.
      const refused = await inProject(scope)(process.execPath, ["--no-experimental-require-module", "--input-type=commonjs", "-e", 'require("ctxbench")']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('ctxbench is an ES module: require("ctxbench") needs Node 20.19 or later with require of ES modules enabled');
    }, TIMEOUT);

    it("loads and certifies a plugin of every entry extension", async () => {
      for (const extension of EXTENSIONS) await cp(join(REPO, "test/fixtures/plugins/scopes", scope, `${scope}-${extension}`), join(projects[scope]!, "plugins", `${scope}-${extension}`), { recursive: true });
      const listed = await inProject(scope)("npx", ["--no", "ctxbench", "engines", "list", "--plugins", "plugins", "--load", "--json"]);
      ok(listed);
      const { engines } = JSON.parse(listed.stdout) as { engines: Array<{ name: string; bundled: boolean; load: { ok: boolean; engineName: string } }> };
      expect(engines.filter((engine) => !engine.bundled).map((engine) => [engine.name, engine.load])).toEqual(
        [...EXTENSIONS.map((extension) => `${scope}-${extension}`), "my-engine"].sort().map((name) => [name, { ok: true, engineName: name, error: null }]),
      );
      // The entry modules load in certify's worker processes too (three at a time: 2 cores).
      const names = EXTENSIONS.map((extension) => `${scope}-${extension}`);
      for (let i = 0; i < names.length; i += 3) {
        // The installed bin itself: npx in front of each of these would only start npm twelve more times.
        const certified = await Promise.all(names.slice(i, i + 3).map((name) => inProject(scope)(join(projects[scope]!, "node_modules/.bin/ctxbench"), ["certify", "--plugins", "plugins", "--engine", name, "--checks", "REG-5", "ABC-1", "ABC-2", "--format", "json"])));
        for (const outcome of certified) {
          ok(outcome);
          expect((JSON.parse(outcome.stdout) as { certifications: Array<{ verdict: string }> }).certifications[0]!.verdict).toBe("certified");
        }
      }
    }, TIMEOUT);

    // Once: the package scope is a Node matter; a Python plugin is loaded by the bridge either way.
    if (scope === "commonjs") it("certifies a Python plugin through the Hermes bridge the package ships", async () => {
      await cp(join(REPO, "test/fixtures/plugins/python/recall"), join(projects[scope]!, "python-plugins/recall"), { recursive: true });
      const certified = await inProject(scope)("npx", ["--no", "ctxbench", "certify", "--plugins", "python-plugins", "--engine", "recall", "--checks", "REG-5", "ABC", "--format", "json"]);
      ok(certified);
      expect((JSON.parse(certified.stdout) as { certifications: Array<{ verdict: string }> }).certifications[0]!.verdict).toBe("certified");
    }, TIMEOUT);

    it("npx tsc --noEmit is clean: strict, NodeNext, skipLibCheck false, over the scaffold and every entry extension", async () => {
      const tsconfig = JSON.parse(await readFile(join(projects[scope]!, "tsconfig.json"), "utf8")) as { compilerOptions: Record<string, unknown> };
      expect(tsconfig.compilerOptions).toMatchObject({ strict: true, module: "NodeNext", skipLibCheck: false });
      const tsc = await inProject(scope)("npx", ["--no", "tsc", "--noEmit"]);
      expect(tsc).toMatchObject({ code: 0, stdout: "" });
    }, TIMEOUT);
  });
}
