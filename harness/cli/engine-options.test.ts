import { describe, expect, it } from "vitest";
import yargs from "yargs";
import { join } from "node:path";
import { UsageError } from "../util/errors.ts";
import { loadSelectedEngine, withEngineSelection, type EngineSelectionArgs } from "./engine-options.ts";
import { FIXTURE_GENERAL, FIXTURES } from "../plugins/test-support.ts";
import { memoryIo } from "./test-io.ts";

const parse = (argv: string[]) => withEngineSelection(yargs(argv)).parseSync() as EngineSelectionArgs;

describe("engine selection options", () => {
  it("loads the engine --engine names from --plugins", async () => {
    const io = memoryIo(FIXTURES);
    const loaded = await loadSelectedEngine(io, parse(["--engine", "ts-engine", "--plugins", "user"]), { strict: true });
    expect(loaded).toMatchObject({ name: "ts-engine", source: "directory" });
    expect(io.err()).toBe("");
  });

  it("passes --plugin-module through and prints warnings on stderr", async () => {
    const io = memoryIo(FIXTURES);
    const args = parse(["--engine", "first-engine", "--plugin-module", join(FIXTURE_GENERAL, "registers-two.ts")]);
    expect((await loadSelectedEngine(io, args, { strict: true })).source).toBe("general");
    expect(io.err()).toMatch(/^warning: .*only one context engine is allowed\n$/);
  });

  it("refuses an unknown engine when strict", async () => {
    const io = memoryIo(FIXTURES);
    await expect(loadSelectedEngine(io, parse(["--engine", "nope"]), { strict: true })).rejects.toThrow(UsageError);
  });

  it("reads --config", async () => {
    const io = memoryIo(FIXTURES);
    await expect(loadSelectedEngine(io, parse(["--config", "absent.yaml"]), { strict: false })).rejects.toThrow(/absent\.yaml: cannot read/);
  });
});
