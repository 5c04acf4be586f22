import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { loadEngine } from "./load.ts";
import { moduleFormat } from "./module-format.ts";
import { projectWithScopes, scratchTreesPerTest } from "./test-support.ts";

const scratch = scratchTreesPerTest();
const withScopes = () => projectWithScopes(scratch);
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

describe("plugins in any package scope, with any entry extension, import ctxbench", () => {
  for (const scope of SCOPES) {
    it(`loads index.{${EXTENSIONS.join(",")}} in a "type": "${scope}" package`, async () => {
      const root = join(await withScopes(), scope);
      for (const extension of EXTENSIONS) {
        const name = `${scope}-${extension}`;
        const loaded = await loadEngine({ cwd: root, name, pluginDirs: ["."], strict: true });
        expect([loaded.source, loaded.engine.name, loaded.warnings]).toEqual(["directory", name, []]);
        // A second instance comes from the same module, without importing it again.
        expect((await loaded.createFresh()).name).toBe(name);
      }
    });
  }
});
