import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { UsageError } from "../util/errors.ts";
import { selectEngine } from "./select.ts";
import { FIXTURE_BUNDLED, FIXTURE_USER, FIXTURES, scratchTreesPerTest } from "./test-support.ts";

const scratch = scratchTreesPerTest();

describe("selectEngine: the engine a command tests, from discovery alone", () => {
  it("carries the run's config.yaml for a Python engine's load_config(), context.engine the engine selected; null without a config file", async () => {
    const cwd = await scratch({ "config.yaml": "context:\n  engine: truncate\n  keep: 3\nkeeper:\n  flaw: split-batch\n" });
    expect((await selectEngine({ cwd, name: "compressor" })).spec.runtime.config).toEqual({ context: { engine: "compressor", keep: 3 }, keeper: { flaw: "split-batch" } });
    expect((await selectEngine({ cwd })).spec.runtime.config).toEqual({ context: { engine: "truncate", keep: 3 }, keeper: { flaw: "split-batch" } });
    expect((await selectEngine({ cwd: await scratch({}), name: "compressor" })).spec.runtime.config).toBeNull();
  });

  it("lets a user plugin named like a bundled engine win, with a notice naming bundled:NAME", async () => {
    const { spec, notices } = await selectEngine({ cwd: FIXTURES, name: "clash", pluginDirs: ["user"], bundledRoot: FIXTURE_BUNDLED });
    expect(spec.candidates.map((c) => [c.path, c.location, c.bundled])).toEqual([["directory", join(FIXTURE_USER, "clash"), false]]);
    expect(notices).toEqual([`testing the plugin "clash" from ${join(FIXTURE_USER, "clash")}; the bundled engine of that name stays reachable as bundled:clash`]);
  });

  it("reaches the bundled engine as bundled:NAME", async () => {
    const { spec, notices } = await selectEngine({ cwd: FIXTURES, name: "bundled:clash", pluginDirs: ["user"], bundledRoot: FIXTURE_BUNDLED });
    expect(spec).toMatchObject({ name: "clash", selection: "bundled:clash" });
    expect(spec.candidates.map((c) => [c.path, c.bundled, c.manifest?.version])).toEqual([["directory", true, "1.0.0"]]);
    expect(notices).toEqual([]);
    await expect(selectEngine({ cwd: FIXTURES, name: "bundled:ts-engine", pluginDirs: ["user"], bundledRoot: FIXTURE_BUNDLED })).rejects.toThrow('there is no bundled engine "ts-engine"');
  });

  it("without a directory of the selected name, plans the general-plugin path through the user plugins whose sources name it, then the bundled one", async () => {
    const cwd = await scratch({
      "plugins/hermes-lcm/plugin.yaml": "name: hermes-lcm\nversion: 0.20.0\n",
      "plugins/hermes-lcm/index.ts": "export function register(ctx) { ctx.register_context_engine(new Engine()); }\n",
      "plugins/hermes-lcm/engine.ts": 'export class Engine { name = "lcm"; }\n',
      "plugins/py-lcm/plugin.yaml": "name: py-lcm\n",
      "plugins/py-lcm/__init__.py": "def register(ctx):\n    ctx.register_context_engine(Engine())\n",
      "plugins/py-lcm/engine/core.py": "class Engine:\n    @property\n    def name(self):\n        return 'lcm'\n",
      "plugins/unrelated/plugin.yaml": "name: unrelated\n",
      "plugins/unrelated/index.ts": 'process.exit(0); // mentions lcm only unquoted\n',
      "plugins/notes/README.md": "not a plugin",
    });
    const { spec } = await selectEngine({ cwd, name: "lcm", pluginDirs: ["plugins"] });
    expect(spec.candidates.map((c) => [c.path, c.location, c.language, c.bundled])).toEqual([
      ["general", join(cwd, "plugins/hermes-lcm"), "typescript", false],
      ["general", join(cwd, "plugins/py-lcm"), "python", false],
      ["directory", expect.stringMatching(/engines\/lcm$/), "typescript", true],
    ]);
    expect(spec.candidates[0]!.manifest).toEqual({ name: "hermes-lcm", version: "0.20.0", description: "", searchTool: null });
  });

  it("tries a --plugin-module before the plugin directories", async () => {
    const cwd = await scratch({ "mod.ts": "export function register() {}\n" });
    const { spec } = await selectEngine({ cwd, name: "mine", pluginModule: "mod.ts", bundledRoot: join(cwd, "none") });
    expect(spec.candidates).toEqual([{ path: "module", location: join(cwd, "mod.ts"), entry: join(cwd, "mod.ts"), language: "typescript", bundled: false, manifest: null, mode: null }]);
  });

  it("reads the selection from config.yaml when no name is given", async () => {
    const cwd = await scratch({ "config.yaml": "context:\n  engine: truncate\n" });
    const { spec } = await selectEngine({ cwd });
    expect(spec).toMatchObject({ name: "truncate", selection: "truncate" });
  });

  it.each([
    [{ name: "nowhere" }, /context engine "nowhere" not found/],
    [{ name: "../x" }, /must not contain a path separator/],
    [{ name: "bundled:" }, /names no engine/],
    [{ name: "x", pluginDirs: ["missing"] }, /plugin directory does not exist/],
    [{ name: "x", pluginModule: "missing.ts" }, /plugin module does not exist/],
  ])("refuses %j with a one-line UsageError", async (options, message) => {
    const cwd = await scratch({});
    const error = await selectEngine({ cwd, bundledRoot: join(cwd, "none"), ...options }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain("\n");
  });
});
