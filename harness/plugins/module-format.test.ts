import { describe, expect, it } from "vitest";
import { cp, mkdir, symlink } from "node:fs/promises";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../util/package-root.ts";
import { runCli } from "../cli/main.ts";
import { memoryIo } from "../cli/test-io.ts";
import { loadEngine } from "./load.ts";
import { moduleFormat } from "./module-format.ts";
import { FIXTURES, scratchTreesPerTest } from "./test-support.ts";

const scratch = scratchTreesPerTest();
const EXTENSIONS = ["ts", "mts", "cts", "js", "mjs", "cjs"] as const;
const SCOPES = ["commonjs", "module"] as const;

describe("the format Node gives a plugin's entry module", () => {
  it("follows the extension, then the nearest package.json's type; without one, .ts is CommonJS and .js is Node's to detect", async () => {
    const cwd = await scratch({
      "esm/package.json": '{"type": "module"}',
      "esm/deep/er/index.ts": "",
      "cjs/package.json": '{"name": "x", "type": "commonjs"}',
      "untyped/package.json": '{"name": "x"}',
      "broken/package.json": "{",
    });
    expect(moduleFormat(join(cwd, "untyped/index.ts"))).toBe("commonjs");
    expect(moduleFormat(join(cwd, "untyped/index.js"))).toBe("module");
    expect(moduleFormat(join(cwd, "bare/index.js"))).toBe("module");
    expect(moduleFormat(join(cwd, "esm/deep/er/index.ts"))).toBe("module");
    expect(moduleFormat(join(cwd, "esm/index.cts"))).toBe("commonjs");
    expect(moduleFormat(join(cwd, "esm/index.cjs"))).toBe("commonjs");
    expect(moduleFormat(join(cwd, "cjs/index.js"))).toBe("commonjs");
    expect(moduleFormat(join(cwd, "cjs/index.mts"))).toBe("module");
    expect(moduleFormat(join(cwd, "cjs/index.mjs"))).toBe("module");
    expect(moduleFormat(join(cwd, "broken/index.ts"))).toBe("commonjs");
    expect(moduleFormat(join(cwd, "cjs/index.ts"))).toBe("commonjs");
  });
});

/** The scope fixtures in a project where `ctxbench` is installed (as a link to this checkout). */
async function projectWithScopes(): Promise<string> {
  const project = await scratch({});
  await cp(join(FIXTURES, "scopes"), project, { recursive: true });
  await mkdir(join(project, "node_modules"));
  await symlink(PACKAGE_ROOT, join(project, "node_modules/ctxbench"));
  return project;
}

describe("plugins in any package scope, with any entry extension, import ctxbench", () => {
  for (const scope of SCOPES) {
    it(`loads index.{${EXTENSIONS.join(",")}} in a "type": "${scope}" package`, async () => {
      const root = join(await projectWithScopes(), scope);
      for (const extension of EXTENSIONS) {
        const name = `${scope}-${extension}`;
        const loaded = await loadEngine({ cwd: root, name, pluginDirs: ["."], strict: true });
        expect([loaded.source, loaded.engine.name, loaded.warnings]).toEqual(["directory", name, []]);
        // A second instance comes from the same module, without importing it again.
        expect((await loaded.createFresh()).name).toBe(name);
      }
    });
  }

  it("engines list --load shows all twelve loading", async () => {
    const io = memoryIo(await projectWithScopes());
    expect(await runCli(["engines", "list", "--plugins", "commonjs", "module", "--json", "--load"], io), io.err()).toBe(0);
    const { engines } = JSON.parse(io.out()) as { engines: Array<{ name: string; bundled: boolean; load: { ok: boolean; engineName: string } }> };
    const user = engines.filter((engine) => !engine.bundled);
    expect(user.map((engine) => [engine.name, engine.load.ok, engine.load.engineName])).toEqual(
      SCOPES.flatMap((scope) => [...EXTENSIONS].sort().map((extension) => [`${scope}-${extension}`, true, `${scope}-${extension}`])),
    );
  });
});
