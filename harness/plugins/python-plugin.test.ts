import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { disposeEngine, nativeFacts } from "../contract/native.ts";
import { pythonEngine } from "../engine-protocol/test-support.ts";
import { UsageError } from "../util/errors.ts";
import { loadEngine } from "./load.ts";
import { FIXTURE_BUNDLED, scratchTreesPerTest } from "./test-support.ts";

const scratch = scratchTreesPerTest();
const plugin = (name: string, init: string) => ({ [`p/${name}/plugin.yaml`]: `name: ${name}\nversion: 2.0.1\n`, [`p/${name}/__init__.py`]: init });

describe("Python plugin directories through the Hermes bridge", () => {
  it("load as Python engines whose fresh instances run in the sandbox they are given", async () => {
    const cwd = await scratch(plugin("snake", pythonEngine("snake")));
    const loaded = await loadEngine({ cwd, bundledRoot: FIXTURE_BUNDLED, pluginDirs: ["p"], name: "snake", strict: true });
    expect(loaded).toMatchObject({ name: "snake", language: "python", source: "directory", version: "2.0.1" });
    expect(loaded.engine.name).toBe("snake");
    const home = mkdtempSync(join(tmpdir(), "ctxbench-home-"));
    try {
      const fresh = await loadEngine({ cwd, bundledRoot: FIXTURE_BUNDLED, pluginDirs: ["p"], name: "snake", strict: true }).then((again) => again.createFresh({ home }));
      expect(nativeFacts(fresh)?.home).toBe(home);
      expect(nativeFacts(fresh)?.language).toBe("python");
      await disposeEngine(fresh);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
    await disposeEngine(loaded.engine);
  });

  it("a plugin that fails to import is one line with exit 2 for certify, a fallback for the host", async () => {
    const cwd = await scratch(plugin("broken", "raise RuntimeError('boom at import')\n"));
    const strict = await loadEngine({ cwd, bundledRoot: FIXTURE_BUNDLED, pluginDirs: ["p"], name: "broken", strict: true }).catch((error: unknown) => error);
    expect(strict).toBeInstanceOf(UsageError);
    expect(String((strict as Error).message)).toMatch(/^context engine "broken" failed to load: .*__init__\.py: failed to import: RuntimeError: boom at import$/);
    const host = await loadEngine({ cwd, bundledRoot: FIXTURE_BUNDLED, pluginDirs: ["p"], name: "broken" });
    expect(host.name).toBe("compressor");
    expect(host.warnings.at(-1)).toMatch(/boom at import — falling back to the built-in compressor$/);
  });

  it("--python naming no interpreter is one line with exit 2", async () => {
    const cwd = await scratch(plugin("snake", pythonEngine("snake")));
    const error = await loadEngine({ cwd, bundledRoot: FIXTURE_BUNDLED, pluginDirs: ["p"], name: "snake", strict: true, python: join(cwd, "no-python") }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toContain("no-python: no executable file there");
  });
});
