import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { ContextEngine } from "../../contract/context-engine.ts";
import { runGeneralPlugin } from "../../plugins/general.ts";
import { FixtureBaseEngine } from "../fixtures/index.ts";
import { runChecks } from "../runner.ts";
import type { EngineOrigin, SelectionFacts } from "../types.ts";
import { selectChecks } from "./index.ts";

const HERMES_LCM = fileURLToPath(new URL("../../../test/fixtures/plugins/hermes/hermes-lcm/index.ts", import.meta.url));

async function reg5(create: () => Promise<ContextEngine>, selectedName: string, selection: SelectionFacts | null) {
  const origin: EngineOrigin | null = selection === null ? null : { path: selection.via === "general" ? "general" : "directory", bundled: selection.via === "bundled", directoryName: selection.directoryName, manifestName: selection.manifestName, language: "typescript" };
  const [result] = await runChecks({ name: "under-test", version: "0", selectedName, manifestName: selection?.manifestName ?? null, origin, createFresh: create }, selectChecks(["REG-5"]), { seed: 1 });
  return result!;
}

const hermesLcm = async () => (await runGeneralPlugin(HERMES_LCM, process.cwd())).engine!;

describe("REG-5 judges the name by the path that found the engine", () => {
  it("the hermes-lcm layout (directory and plugin.yaml hermes-lcm, engine lcm) selected as lcm through the general-plugin path passes", async () => {
    const result = await reg5(hermesLcm, "lcm", { via: "general", directoryName: "hermes-lcm", manifestName: "hermes-lcm" });
    expect(result.outcome, result.message).toBe("pass");
    expect(result.message).toBe('name "lcm" matches its selection through the general-plugin path (directory "hermes-lcm", plugin.yaml "hermes-lcm" may differ there)');
  });

  it("on the directory path the directory's name is the selection key: the same engine selected as hermes-lcm fails", async () => {
    const result = await reg5(hermesLcm, "hermes-lcm", { via: "directory", directoryName: "hermes-lcm", manifestName: "hermes-lcm" });
    expect(result.outcome).toBe("fail");
    expect(result.message).toBe('name "lcm" differs from its plugin directory\'s name "hermes-lcm", which selects it');
  });

  it("a general plugin whose engine is not called what selected it fails", async () => {
    const result = await reg5(hermesLcm, "hermes", { via: "general", directoryName: "hermes-lcm", manifestName: "hermes-lcm" });
    expect(result.outcome).toBe("fail");
    expect(result.message).toContain('name "lcm" differs from the name it was selected by, "hermes"');
  });

  it("on the directory path a plugin.yaml name the directory loader never reads is a note, not a failure", async () => {
    const result = await reg5(async () => new FixtureBaseEngine(), "fixture-base", { via: "directory", directoryName: "fixture-base", manifestName: "fixture-base-engine" });
    expect(result.outcome).toBe("pass");
    expect(result.message).toContain('plugin.yaml says "fixture-base-engine", which the directory loader does not read');
  });
});
