import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseTrace } from "../../harness/trace/jsonl.ts";
import { ctxbench, REPO } from "./support.ts";

/** A Hermes-style general plugin: directory and manifest `hermes-lcm`, registering an engine named `lcm`. */
const work = mkdtempSync(join(tmpdir(), "ctxbench-selection-"));
const plugins = join(work, "plugins");
mkdirSync(join(plugins, "hermes-lcm"), { recursive: true });
writeFileSync(join(plugins, "hermes-lcm", "plugin.yaml"), "name: hermes-lcm\ndescription: lcm through the general plugin system\nversion: 0.20.0\n");
writeFileSync(
  join(plugins, "hermes-lcm", "index.ts"),
  `import { LcmEngine } from ${JSON.stringify(join(REPO, "engines/lcm/index.ts"))};
// Registers the engine "lcm", as the real hermes-lcm does; its sources naming "lcm" is what makes discovery try it.
export function register(ctx: { register_context_engine(engine: unknown): void }): void {
  ctx.register_context_engine(new LcmEngine());
}
`,
);
afterAll(() => rmSync(work, { recursive: true, force: true }));

const identity = (file: string) => {
  const status = parseTrace(readFileSync(join(work, file), "utf8")).find((event) => event.type === "engine-call" && event.hook === "get_status");
  return status?.type === "engine-call" ? status.detail : undefined;
};

describe("engine selection in the player (as processes)", () => {
  it("finds a general plugin registering the selected name, ahead of the bundled engine of that name, and says so", async () => {
    const run = await ctxbench(["run", "--plugins", plugins, "--engine", "lcm", "--probe", "identity", "--trace", "general.jsonl"], { cwd: work });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`note: testing the plugin "lcm" from ${join(plugins, "hermes-lcm")}; the bundled engine of that name stays reachable as bundled:lcm`);
    expect(identity("general.jsonl")).toMatchObject({
      name: "lcm",
      selectedName: "lcm",
      manifestName: "hermes-lcm",
      origin: { path: "general", bundled: false, directoryName: "hermes-lcm", manifestName: "hermes-lcm", language: "typescript" },
    });
  });

  it("reaches the bundled engine as bundled:NAME", async () => {
    const run = await ctxbench(["run", "--plugins", plugins, "--engine", "bundled:lcm", "--probe", "identity", "--trace", "bundled.jsonl"], { cwd: work });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain("note: testing the plugin");
    expect(identity("bundled.jsonl")).toMatchObject({ name: "lcm", selectedName: "lcm", origin: { path: "directory", bundled: true, directoryName: "lcm", manifestName: "lcm" } });
  });
});
