import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { UsageError } from "../util/errors.ts";
import { BUNDLED_ROOT, discoverEngines, scanPluginRoots } from "./discover.ts";
import { FIXTURE_BUNDLED, FIXTURE_USER, FIXTURES, scratchTreesPerTest } from "./test-support.ts";

const scratch = scratchTreesPerTest();

describe("discoverEngines (REG-2)", () => {
  it("finds bundled engines and --plugins engines, sorted, skipping _ and . directories and non-plugins", async () => {
    const engines = await discoverEngines({ cwd: FIXTURES, pluginDirs: ["user"], bundledRoot: FIXTURE_BUNDLED });
    expect(engines.map((e) => [e.name, e.bundled])).toEqual([
      ["clash", true],
      ["compressor", true],
      ["js-engine", false],
      ["ts-engine", false],
    ]);
    const ts = engines.find((e) => e.name === "ts-engine")!;
    expect(ts).toEqual({
      name: "ts-engine",
      manifestName: "ts-engine",
      version: "1.2.0",
      description: "A TypeScript plugin exporting a ContextEngine subclass",
      searchTool: null,
      directory: join(FIXTURE_USER, "ts-engine"),
      entry: join(FIXTURE_USER, "ts-engine", "index.ts"),
      bundled: false,
      language: "typescript",
    });
    expect(engines.find((e) => e.name === "js-engine")!.entry).toBe(join(FIXTURE_USER, "js-engine", "index.js"));
  });

  it("decides the language from the entry module: __init__.py is a Python plugin", async () => {
    const cwd = await scratch({ "p/hermesy/plugin.yaml": "name: hermesy\nversion: 1.0\n", "p/hermesy/__init__.py": "", "p/both/plugin.yaml": "name: both\n", "p/both/index.ts": "", "p/both/__init__.py": "" });
    const engines = await discoverEngines({ cwd, pluginDirs: ["p"], bundledRoot: FIXTURE_BUNDLED });
    expect(engines.find((e) => e.name === "hermesy")).toMatchObject({ language: "python", entry: join(cwd, "p/hermesy/__init__.py") });
    expect(engines.find((e) => e.name === "both")).toMatchObject({ language: "typescript", entry: join(cwd, "p/both/index.ts") });
  });

  it("a hermes-agent checkout adds its context-engine plugins and its built-in compressor", async () => {
    const checkout = await scratch({ "agent/context_compressor.py": "", "plugins/context_engine/vendored/plugin.yaml": "name: vendored\n", "plugins/context_engine/vendored/__init__.py": "" });
    const { engines, shadowed } = await scanPluginRoots({ cwd: checkout, bundledRoot: FIXTURE_BUNDLED, hermesAgent: "." });
    expect(engines.find((e) => e.name === "vendored")).toMatchObject({ language: "python", bundled: false });
    expect(shadowed.find((e) => e.name === "compressor")).toMatchObject({ language: "python", mode: "builtin-compressor", directory: checkout, bundled: false });
    const notCheckout = await scratch({ "README": "" });
    await expect(scanPluginRoots({ cwd: notCheckout, bundledRoot: FIXTURE_BUNDLED, hermesAgent: "." })).rejects.toThrow(/not a hermes-agent checkout \(no agent\/context_compressor\.py\)/);
  });

  it("lets a bundled engine win a name clash and reports the shadowed one", async () => {
    const { engines, shadowed } = await scanPluginRoots({ cwd: FIXTURES, pluginDirs: ["user"], bundledRoot: FIXTURE_BUNDLED });
    expect(engines.find((e) => e.name === "clash")).toMatchObject({ bundled: true, version: "1.0.0" });
    expect(shadowed.map((e) => [e.name, e.version, e.directory])).toEqual([["clash", "9.9.9", join(FIXTURE_USER, "clash")]]);
  });

  it("finds plugins under plugins/context_engine of the working directory, before --plugins roots", async () => {
    const cwd = await scratch({
      "plugins/context_engine/local/plugin.yaml": "name: local\nversion: 2\n",
      "plugins/context_engine/local/index.mjs": "export const nothing = 1;\n",
      "extra/local/plugin.yaml": "name: local\nversion: 3\n",
      "extra/local/index.js": "export const nothing = 1;\n",
    });
    const { engines, shadowed } = await scanPluginRoots({ cwd, pluginDirs: ["extra"], bundledRoot: FIXTURE_BUNDLED });
    expect(engines.find((e) => e.name === "local")).toMatchObject({ version: "2", description: "", entry: join(cwd, "plugins/context_engine/local/index.mjs") });
    expect(shadowed.map((e) => e.version)).toEqual(["3"]);
  });

  it("prefers index.ts over index.js over index.mjs", async () => {
    const cwd = await scratch({
      "root/both/plugin.yaml": "name: both\n",
      "root/both/index.mjs": "",
      "root/both/index.js": "",
    });
    const [both] = await discoverEngines({ cwd, pluginDirs: ["root"], bundledRoot: join(cwd, "none") });
    expect(both!.entry).toBe(join(cwd, "root/both/index.js"));
  });

  it("resolves the bundled root next to the package, not the working directory", () => {
    expect(BUNDLED_ROOT).toBe(join(FIXTURES, "..", "..", "..", "engines") + "/");
  });
});

describe("discovery of bad input", () => {
  const cases: Array<[string, Record<string, string>, RegExp]> = [
    ["a malformed plugin.yaml", { "root/bad/plugin.yaml": "name: [unclosed\n", "root/bad/index.js": "" }, /root\/bad\/plugin\.yaml: malformed YAML/],
    ["a manifest without name", { "root/bad/plugin.yaml": "description: no name\n", "root/bad/index.js": "" }, /root\/bad\/plugin\.yaml: missing "name"/],
    ["an empty manifest", { "root/bad/plugin.yaml": "", "root/bad/index.js": "" }, /plugin\.yaml: empty manifest/],
    ["a manifest that is a list", { "root/bad/plugin.yaml": "- name\n", "root/bad/index.js": "" }, /plugin\.yaml: expected a mapping/],
    ["a missing entry module", { "root/bad/plugin.yaml": "name: bad\n", "root/bad/main.js": "" }, /root\/bad: no entry module \(index\.ts, index\.mts, index\.cts, index\.js, index\.mjs, index\.cjs, __init__\.py\)/],
  ];
  for (const [label, files, message] of cases) {
    it(`refuses ${label} with a one-line UsageError naming the file`, async () => {
      const cwd = await scratch(files);
      const error = await discoverEngines({ cwd, pluginDirs: ["root"], bundledRoot: FIXTURE_BUNDLED }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UsageError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain("\n");
    });
  }

  it("lists the other plugins beside one without an entry module, which scanPluginRoots reports as broken", async () => {
    const cwd = await scratch({ "root/bad/plugin.yaml": "name: bad\n", "root/bad/main.js": "", "root/good/plugin.yaml": "name: good\n", "root/good/index.cjs": "" });
    const { engines, broken } = await scanPluginRoots({ cwd, pluginDirs: ["root"], bundledRoot: join(cwd, "none") });
    expect(engines.map((engine) => engine.name)).toEqual(["good"]);
    expect(broken).toEqual([{ name: "bad", directory: join(cwd, "root/bad"), bundled: false, error: expect.stringMatching(/root\/bad: no entry module \(index\.ts, /) }]);
  });

  it("finds an entry module of every extension Node runs, TypeScript first", async () => {
    const extensions = ["ts", "mts", "cts", "js", "mjs", "cjs"];
    const files: Record<string, string> = {};
    for (const extension of extensions) Object.assign(files, { [`root/${extension}/plugin.yaml`]: `name: ${extension}\n`, [`root/${extension}/index.${extension}`]: "" });
    files["root/both/plugin.yaml"] = "name: both\n";
    files["root/both/index.js"] = "";
    files["root/both/index.mts"] = "";
    const cwd = await scratch(files);
    const engines = await discoverEngines({ cwd, pluginDirs: ["root"], bundledRoot: join(cwd, "none") });
    expect(Object.fromEntries(engines.map((engine) => [engine.name, engine.entry]))).toEqual({
      ...Object.fromEntries(extensions.map((extension) => [extension, join(cwd, `root/${extension}/index.${extension}`)])),
      both: join(cwd, "root/both/index.mts"),
    });
  });

  it("refuses a --plugins directory that does not exist", async () => {
    const error = await discoverEngines({ cwd: FIXTURES, pluginDirs: ["no-such-dir"], bundledRoot: FIXTURE_BUNDLED }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(`${join(FIXTURES, "no-such-dir")}: plugin directory does not exist`);
  });

  it("ignores an absent plugins/context_engine and an absent bundled root", async () => {
    const cwd = await scratch({ "empty/.keep": "" });
    expect(await discoverEngines({ cwd, bundledRoot: join(cwd, "nothing") })).toEqual([]);
  });
});
