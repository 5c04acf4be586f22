import { describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { copyFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { UsageError } from "../util/errors.ts";
import { ContextEngine, isContextEngine, overridesHook } from "../contract/context-engine.ts";
import { BUNDLED_ROOT } from "./discover.ts";
import { loadEngine } from "./load.ts";
import type { LoadEngineOptions } from "./types.ts";
import { engineSource, FIXTURE_BUNDLED, FIXTURE_GENERAL, FIXTURE_USER, FIXTURES, scratchTreesPerTest } from "./test-support.ts";

const CONTRACT_URL = pathToFileURL(fileURLToPath(new URL("../contract/context-engine.ts", import.meta.url))).href;
const base: LoadEngineOptions = { cwd: FIXTURES, bundledRoot: FIXTURE_BUNDLED };
const withUser: LoadEngineOptions = { ...base, pluginDirs: ["user"] };

const scratch = scratchTreesPerTest();
async function rejection(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => new Error("expected a rejection"),
    (e: unknown) => e as Error,
  );
  return error;
}

describe("selection by config (REG-1)", () => {
  it("uses the built-in compressor without a config, even with plugins installed", async () => {
    const loaded = await loadEngine(withUser);
    expect(loaded).toMatchObject({ name: "compressor", selected: "compressor", source: "bundled", version: "0.0.1", warnings: [] });
    expect(loaded.engine.name).toBe("compressor");
  });

  for (const [label, yaml] of [
    ["an empty config", ""],
    ["no context key", "model: x\n"],
    ["no engine key", "context:\n  other: 1\n"],
    ["an empty engine", 'context:\n  engine: ""\n'],
    ["a null engine", "context:\n  engine:\n"],
  ] as const) {
    it(`selects the compressor with ${label}`, async () => {
      const cwd = await scratch({ "config.yaml": yaml });
      expect((await loadEngine({ cwd, bundledRoot: FIXTURE_BUNDLED })).selected).toBe("compressor");
    });
  }

  it("selects the engine context.engine names", async () => {
    const cwd = await scratch({ "config.yaml": "context:\n  engine: ts-engine\n" });
    const loaded = await loadEngine({ cwd, bundledRoot: FIXTURE_BUNDLED, pluginDirs: [FIXTURE_USER] });
    expect(loaded).toMatchObject({ name: "ts-engine", source: "directory", version: "1.2.0", directory: join(FIXTURE_USER, "ts-engine") });
    expect(loaded.engine.name).toBe("ts-engine");
  });

  it("lets --engine override the config, and reads a config path given explicitly", async () => {
    const cwd = await scratch({ "elsewhere.yaml": "context:\n  engine: ts-engine\n" });
    const options = { cwd, bundledRoot: FIXTURE_BUNDLED, pluginDirs: [FIXTURE_USER], configPath: "elsewhere.yaml" };
    expect((await loadEngine(options)).name).toBe("ts-engine");
    expect((await loadEngine({ ...options, name: "js-engine" })).name).toBe("js-engine");
  });
});

describe("directory plugins (REG-2)", () => {
  it("loads a TypeScript plugin exporting a subclass and a JavaScript plugin using register(ctx)", async () => {
    const ts = await loadEngine({ ...withUser, name: "ts-engine" });
    const js = await loadEngine({ ...withUser, name: "js-engine" });
    expect(isContextEngine(ts.engine) && isContextEngine(js.engine)).toBe(true);
    expect([ts.engine.name, js.engine.name]).toEqual(["ts-engine", "js-engine"]);
    expect(js).toMatchObject({ source: "directory", version: "0.3.0" });
    expect(await js.engine.compress([{ role: "user", content: "a" }, { role: "user", content: "b" }])).toEqual([{ role: "user", content: "b" }]);
  });

  it("for a command that tests the engine named, a user's plugin wins the clash with a notice; bundled:NAME still reaches the bundled one", async () => {
    const user = await loadEngine({ ...withUser, name: "clash", strict: true });
    expect(user).toMatchObject({ source: "directory", version: "9.9.9", selected: "clash" });
    expect(user.warnings).toEqual([`"clash" is also a bundled engine; testing the one in ${join(FIXTURE_USER, "clash")} (the bundled one is bundled:clash)`]);
    const bundled = await loadEngine({ ...withUser, name: "bundled:clash", strict: true });
    expect(bundled).toMatchObject({ source: "bundled", version: "1.0.0", selected: "clash", warnings: [] });
    await expect(loadEngine({ ...withUser, name: "bundled:ts-engine", strict: true })).rejects.toThrow(/context engine "ts-engine" not found/);
  });

  it("lets the bundled engine win a name clash", async () => {
    const loaded = await loadEngine({ ...withUser, name: "clash" });
    expect(loaded).toMatchObject({ source: "bundled", version: "1.0.0", directory: join(FIXTURE_BUNDLED, "clash") });
    expect((loaded.engine as unknown as { origin: string }).origin).toBe("bundled");
  });

  it("loads from plugins/context_engine under the working directory", async () => {
    const cwd = await scratch({
      "plugins/context_engine/local/plugin.yaml": "name: local\nversion: 0.1\n",
      "plugins/context_engine/local/index.mjs": engineSource("local", CONTRACT_URL),
    });
    expect(await loadEngine({ cwd, bundledRoot: FIXTURE_BUNDLED, name: "local" })).toMatchObject({ name: "local", version: "0.1", source: "directory" });
  });

  it("createFresh gives a new, independent instance each time", async () => {
    const loaded = await loadEngine({ ...withUser, name: "js-engine" });
    const [a, b] = await Promise.all([loaded.createFresh(), loaded.createFresh()]);
    expect(new Set([loaded.engine, a, b]).size).toBe(3);
    a!.update_model({ model: "m", context_length: 1000 });
    expect([loaded.engine.context_length, a!.context_length, b!.context_length]).toEqual([0, 1000, 0]);
    expect(Object.getPrototypeOf(a)).toBe(Object.getPrototypeOf(loaded.engine));
  });

  it("32 concurrent loads of one plugin all succeed with separate engines", async () => {
    const loads = await Promise.all(Array.from({ length: 32 }, () => loadEngine({ ...withUser, name: "ts-engine" })));
    expect(loads.every((l) => l.source === "directory" && l.engine.name === "ts-engine" && l.warnings.length === 0)).toBe(true);
    expect(new Set(loads.map((l) => l.engine)).size).toBe(32);
  });

  it("32 concurrent first loads of a never-imported plugin all succeed", async () => {
    const cwd = await scratch({ "root/fresh/plugin.yaml": "name: fresh\n", "root/fresh/index.js": engineSource("fresh", CONTRACT_URL) });
    const loads = await Promise.all(Array.from({ length: 32 }, () => loadEngine({ cwd, bundledRoot: FIXTURE_BUNDLED, pluginDirs: ["root"], name: "fresh" })));
    expect(loads.map((l) => l.source)).toEqual(Array(32).fill("directory"));
    expect(new Set(loads.map((l) => l.engine)).size).toBe(32);
  });

  it("uses the first engine a directory plugin registers and warns about a second", async () => {
    const cwd = await scratch({
      "root/double/plugin.yaml": "name: double\n",
      "root/double/index.js": `${engineSource("double", CONTRACT_URL)}
export function register(ctx) { ctx.register_context_engine(new Engine()); ctx.register_context_engine(new Engine()); }
`,
    });
    const loaded = await loadEngine({ cwd, bundledRoot: FIXTURE_BUNDLED, pluginDirs: ["root"], name: "double" });
    expect(loaded.source).toBe("directory");
    expect(loaded.warnings).toEqual([expect.stringContaining('only one context engine is allowed')]);
  });

  it("warns when the engine reports a name other than the one that selected it (REG-5)", async () => {
    const cwd = await scratch({ "root/alias/plugin.yaml": "name: alias\n", "root/alias/index.js": engineSource("real-name", CONTRACT_URL) });
    const loaded = await loadEngine({ cwd, bundledRoot: FIXTURE_BUNDLED, pluginDirs: ["root"], name: "alias" });
    expect(loaded).toMatchObject({ name: "alias", source: "directory" });
    expect(loaded.warnings).toEqual(['context engine "alias" reports the name "real-name"; REG-5 wants them equal']);
  });

  it("falls through from a throwing register(ctx) to an exported subclass, as upstream", async () => {
    const cwd = await scratch({
      "root/both/plugin.yaml": "name: both\n",
      "root/both/index.js": `${engineSource("both", CONTRACT_URL)}export function register() { throw new Error("boom"); }\n`,
    });
    expect((await loadEngine({ cwd, bundledRoot: FIXTURE_BUNDLED, pluginDirs: ["root"], name: "both" })).engine.name).toBe("both");
  });
});

describe("a plugin with its own copy of the contract", () => {
  it("is recognised by its brand, and the identity check compares against that copy's defaults", async () => {
    const cwd = await scratch({
      "root/own-copy/plugin.yaml": "name: own-copy\n",
      "root/own-copy/index.ts": engineSource("own-copy", "./vendor/context-engine.ts"),
    });
    const vendor = join(cwd, "root/own-copy/vendor");
    await scratchCopy(fileURLToPath(CONTRACT_URL), join(vendor, "context-engine.ts"));
    await scratchCopy(fileURLToPath(new URL("../contract/types.ts", import.meta.url)), join(vendor, "types.ts"));
    const { engine } = await loadEngine({ cwd, bundledRoot: FIXTURE_BUNDLED, pluginDirs: ["root"], name: "own-copy", strict: true });
    expect(engine instanceof ContextEngine).toBe(false);
    expect(isContextEngine(engine)).toBe(true);
    // Its inherited default is not our base's function, yet it is no override.
    expect(engine.select_context).not.toBe(ContextEngine.prototype.select_context);
    expect(overridesHook(engine, "select_context")).toBe(false);
    expect(overridesHook(engine, "on_turn_complete")).toBe(false);
  });
});

async function scratchCopy(from: string, to: string): Promise<void> {
  await mkdir(join(to, ".."), { recursive: true });
  await copyFile(from, to);
}

describe("general plugins (REG-3)", () => {
  const general = (file: string) => join(FIXTURE_GENERAL, file);

  it("uses the registered engine when its name is selected, cloned for this agent", async () => {
    const loaded = await loadEngine({ ...base, name: "general-engine", pluginModule: general("registers-one.ts") });
    expect(loaded).toMatchObject({ name: "general-engine", source: "general", version: null, directory: null, warnings: [] });
    const fresh = await loaded.createFresh();
    expect(fresh).not.toBe(loaded.engine);
    fresh.update_model({ model: "m", context_length: 2000 });
    expect(loaded.engine.context_length).toBe(0);
  });

  it("never activates a registered engine that is not selected", async () => {
    const loaded = await loadEngine({ ...base, pluginModule: general("registers-one.ts") });
    expect(loaded).toMatchObject({ name: "compressor", source: "bundled", warnings: [] });
  });

  it("falls back when the registered engine's name differs from the selected one", async () => {
    const loaded = await loadEngine({ ...base, name: "wanted", pluginModule: general("registers-one.ts") });
    expect(loaded.source).toBe("fallback");
    expect(loaded.warnings.at(-1)).toBe(
      'context engine "wanted" failed to load: the general plugin registered "general-engine", not "wanted" — falling back to the built-in compressor',
    );
  });

  it("refuses a second registration with a warning and keeps the first", async () => {
    const loaded = await loadEngine({ ...base, name: "first-engine", pluginModule: general("registers-two.ts") });
    expect(loaded).toMatchObject({ name: "first-engine", source: "general" });
    expect(loaded.warnings).toEqual([expect.stringMatching(/"second-engine".*"first-engine" is already registered/)]);
  });

  it("refuses an object that is not a ContextEngine with a warning", async () => {
    const loaded = await loadEngine({ ...base, name: "after-impostor", pluginModule: general("registers-non-engine.ts") });
    expect(loaded.source).toBe("general");
    expect(loaded.warnings).toEqual([expect.stringContaining("not a ContextEngine; ignored")]);
  });

  it("falls back with a warning when clone_for_agent fails", async () => {
    const loaded = await loadEngine({ ...base, name: "uncopyable", pluginModule: general("clone-fails.ts") });
    expect(loaded).toMatchObject({ name: "compressor", source: "fallback", selected: "uncopyable" });
    expect(loaded.warnings).toEqual([
      'context engine "uncopyable" could not be safely copied for this agent (holds an open socket) — falling back to the built-in compressor',
    ]);
    await expect(loadEngine({ ...base, name: "uncopyable", pluginModule: general("clone-fails.ts"), strict: true })).rejects.toThrow(UsageError);
  });

  it("warns about a general plugin without register(ctx)", async () => {
    const loaded = await loadEngine({ ...base, pluginModule: general("no-register.ts") });
    expect(loaded.source).toBe("bundled");
    expect(loaded.warnings).toEqual([`${general("no-register.ts")}: plugin module exports no register(ctx)`]);
  });

  it("names a failing general plugin once, in the fallback's cause", async () => {
    const loaded = await loadEngine({ ...base, name: "general-engine", pluginModule: general("no-register.ts") });
    expect(loaded.warnings).toEqual([
      `context engine "general-engine" failed to load: ${general("no-register.ts")}: plugin module exports no register(ctx) — falling back to the built-in compressor`,
    ]);
  });

  it("prefers a directory plugin of the selected name over the general plugin", async () => {
    const loaded = await loadEngine({ ...withUser, name: "ts-engine", pluginModule: general("registers-one.ts") });
    expect(loaded.source).toBe("directory");
  });

  it("refuses a plugin module that does not exist", async () => {
    const error = await rejection(loadEngine({ ...base, pluginModule: "nope.ts" }));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toBe(`${join(FIXTURES, "nope.ts")}: plugin module does not exist`);
  });
});

describe("fallback to the built-in compressor (REG-4)", () => {
  it("falls back for an unknown name with a warning naming it", async () => {
    const loaded = await loadEngine({ ...withUser, name: "nonexistent" });
    expect(loaded).toMatchObject({ name: "compressor", selected: "nonexistent", source: "fallback", directory: join(FIXTURE_BUNDLED, "compressor") });
    expect(loaded.warnings).toEqual(['context engine "nonexistent" not found — falling back to the built-in compressor']);
    expect((await loaded.createFresh()).name).toBe("compressor");
  });

  const broken: Array<[string, Record<string, string>, RegExp]> = [
    ["throws on import", { "root/x/plugin.yaml": "name: x\n", "root/x/index.js": 'throw new Error("import-time failure");\n' }, /index\.js: failed to import: import-time failure/],
    ["exports no engine", { "root/x/plugin.yaml": "name: x\n", "root/x/index.js": "export const answer = 42;\n" }, /index\.js: no engine: exports neither register\(ctx\) nor a ContextEngine subclass/],
    ["has a throwing constructor", { "root/x/plugin.yaml": "name: x\n", "root/x/index.js": 'import { ContextEngine } from "CONTRACT";\nexport class Broken extends ContextEngine { constructor() { super(); throw new Error("no config"); } }\n' }, /constructing Broken threw: no config/],
    ["registers nothing", { "root/x/plugin.yaml": "name: x\n", "root/x/index.js": "export function register() {}\n" }, /register\(\) registered no context engine/],
    ["has a malformed plugin.yaml", { "root/x/plugin.yaml": "name: : :\n", "root/x/index.js": "" }, /plugin\.yaml: malformed YAML/],
    ["has a manifest without name", { "root/x/plugin.yaml": "version: 1\n", "root/x/index.js": "" }, /plugin\.yaml: missing "name"/],
    ["has no entry module", { "root/x/plugin.yaml": "name: x\n" }, /root\/x: no entry module/],
  ];
  for (const [label, files, cause] of broken) {
    it(`falls back when the selected plugin ${label}, and strict mode refuses it`, async () => {
      const contents = Object.fromEntries(Object.entries(files).map(([k, v]) => [k, v.replace("CONTRACT", CONTRACT_URL)]));
      const cwd = await scratch(contents);
      const options = { cwd, bundledRoot: FIXTURE_BUNDLED, pluginDirs: ["root"], name: "x" };
      const loaded = await loadEngine(options);
      expect(loaded.source).toBe("fallback");
      expect(loaded.warnings).toHaveLength(1);
      expect(loaded.warnings[0]).toMatch(/^context engine "x" failed to load: /);
      expect(loaded.warnings[0]).toMatch(cause);
      expect(loaded.warnings[0]).toMatch(/ — falling back to the built-in compressor$/);
      const error = await rejection(loadEngine({ ...options, strict: true }));
      expect(error).toBeInstanceOf(UsageError);
      expect(error.message).toMatch(cause);
      expect(error.message).not.toContain("\n");
    });
  }

  it("refuses an unknown name in strict mode", async () => {
    const error = await rejection(loadEngine({ ...withUser, name: "nonexistent", strict: true }));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toBe('context engine "nonexistent" not found');
  });

  // Runs once engines/compressor is part of the checkout; the fixture double covers the path until then.
  it.skipIf(!existsSync(join(BUNDLED_ROOT, "compressor", "plugin.yaml")))("falls back to the real bundled compressor of this package", async () => {
    const cwd = await scratch({ "config.yaml": "context:\n  engine: not-installed\n" });
    const loaded = await loadEngine({ cwd });
    expect(loaded).toMatchObject({ name: "compressor", selected: "not-installed", source: "fallback", directory: join(BUNDLED_ROOT, "compressor") });
    expect(loaded.engine.name).toBe("compressor");
    expect(isContextEngine(loaded.engine)).toBe(true);
    expect((await loadEngine({ cwd: FIXTURES })).source).toBe("bundled");
  });

  it("is an internal error when the built-in compressor itself is missing", async () => {
    const cwd = await scratch({ "empty/.keep": "" });
    const error = await rejection(loadEngine({ cwd, bundledRoot: join(cwd, "empty"), name: "nonexistent" }));
    expect(error).not.toBeInstanceOf(UsageError);
    expect(error.message).toContain("built-in compressor is missing");
  });
});

describe("bad input is a UsageError in every mode", () => {
  for (const name of ["../user/ts-engine", "a/b", "a\\b", "..", "."]) {
    it(`refuses the engine name ${JSON.stringify(name)} before touching files`, async () => {
      const error = await rejection(loadEngine({ ...base, name }));
      expect(error).toBeInstanceOf(UsageError);
      expect(error.message).toBe(`--engine: engine name ${JSON.stringify(name)} must not contain a path separator or ".."`);
    });
  }

  it("refuses a path-like name from config.yaml", async () => {
    const cwd = await scratch({ "config.yaml": "context:\n  engine: ../../etc\n" });
    await expect(loadEngine({ cwd, bundledRoot: FIXTURE_BUNDLED })).rejects.toThrow(/^context\.engine: engine name/);
  });

  const configs: Array<[string, string, RegExp]> = [
    ["malformed YAML", "context: [engine\n", /config\.yaml: malformed YAML/],
    ["a non-mapping context", "context: lcm\n", /config\.yaml: "context" must be a mapping/],
    ["a non-text engine", "context:\n  engine: 5\n", /config\.yaml: "context\.engine" must be an engine name/],
    ["a top-level list", "- a\n", /config\.yaml: expected a mapping at the top level/],
  ];
  for (const [label, yaml, message] of configs) {
    it(`refuses a config.yaml with ${label}`, async () => {
      const cwd = await scratch({ "config.yaml": yaml });
      const error = await rejection(loadEngine({ cwd, bundledRoot: FIXTURE_BUNDLED }));
      expect(error).toBeInstanceOf(UsageError);
      expect(error.message).toMatch(message);
      expect(error.message.startsWith(join(cwd, "config.yaml"))).toBe(true);
    });
  }

  it("refuses an explicit config path that does not exist", async () => {
    await expect(loadEngine({ ...base, configPath: "missing.yaml" })).rejects.toThrow(/missing\.yaml: cannot read \(ENOENT\)/);
  });

  it("refuses a --plugins directory that does not exist", async () => {
    await expect(loadEngine({ ...base, pluginDirs: ["absent"] })).rejects.toThrow(`${join(FIXTURES, "absent")}: plugin directory does not exist`);
  });
});

describe("an engine whose name getter throws", () => {
  const throwingName = `import { ContextEngine } from ${JSON.stringify(CONTRACT_URL)};
export class Engine extends ContextEngine {
  get name() { throw new Error("boom"); }
  update_from_response() {}
  should_compress() { return false; }
  compress(messages) { return messages; }
}
`;

  it("is a load failure naming the file and the getter, in strict mode a usage error", async () => {
    const cwd = await scratch({ "root/badname/plugin.yaml": "name: badname\n", "root/badname/index.mjs": throwingName });
    const error = await rejection(loadEngine({ cwd, bundledRoot: FIXTURE_BUNDLED, pluginDirs: ["root"], name: "badname", strict: true }));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toBe(`context engine "badname" failed to load: ${join(cwd, "root/badname/index.mjs")}: reading the engine's name threw: boom`);
    const fallback = await loadEngine({ cwd, bundledRoot: FIXTURE_BUNDLED, pluginDirs: ["root"], name: "badname" });
    expect(fallback.source).toBe("fallback");
    expect(fallback.warnings.at(-1)).toContain("index.mjs: reading the engine's name threw: boom");
  });

  it("registered by a general plugin, is named with the plugin module, not a crash", async () => {
    const cwd = await scratch({
      "general.mjs": `${throwingName}export function register(ctx) { ctx.register_context_engine(new Engine()); }\n`,
    });
    const error = await rejection(loadEngine({ cwd, bundledRoot: FIXTURE_BUNDLED, pluginModule: "general.mjs", name: "badname", strict: true }));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toContain(`${join(cwd, "general.mjs")}: reading the engine's name threw: boom`);
  });
});
