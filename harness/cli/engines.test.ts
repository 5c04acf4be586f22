import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { BUNDLED_ROOT } from "../plugins/discover.ts";
import { FIXTURE_USER, FIXTURES, scratchTreesPerTest } from "../plugins/test-support.ts";
import { runCli } from "./main.ts";
import { memoryIo } from "./test-io.ts";

const ANSI = /\u001b\[/;
const scratch = scratchTreesPerTest();

interface Listed {
  name: string;
  version: string | null;
  description: string;
  directory: string;
  bundled: boolean;
}

describe("ctxbench engines list", () => {
  it("prints bundled and --plugins engines as JSON", async () => {
    const io = memoryIo(FIXTURES);
    expect(await runCli(["engines", "list", "--plugins", "user", "--json"], io)).toBe(0);
    const { engines, shadowed } = JSON.parse(io.out()) as { engines: Listed[]; shadowed: Listed[] };
    const user = engines.filter((e) => !e.bundled);
    expect(user.map((e) => e.name)).toEqual(["clash", "js-engine", "ts-engine"]);
    expect(user.find((e) => e.name === "ts-engine")).toEqual({
      name: "ts-engine",
      version: "1.2.0",
      description: "A TypeScript plugin exporting a ContextEngine subclass",
      directory: join(FIXTURE_USER, "ts-engine"),
      bundled: false,
      language: "typescript",
    });
    expect(engines.filter((e) => e.bundled).every((e) => e.directory.startsWith(BUNDLED_ROOT))).toBe(true);
    expect(shadowed).toEqual([]);
    expect(io.err()).toBe("");
  });

  it("prints a plain table when piped and a coloured one on a terminal, unless NO_COLOR", async () => {
    const piped = memoryIo(FIXTURES);
    await runCli(["engines", "list", "--plugins", "user"], piped);
    expect(piped.out()).toMatch(/│ ts-engine\s+│ 1\.2\.0\s+│ TypeScript\s+│ no\s+│/);
    expect(piped.out()).toMatch(/user\/js-engine/);
    expect(piped.out()).not.toMatch(ANSI);
    const terminal = memoryIo(FIXTURES, { isTty: true });
    await runCli(["engines", "list", "--plugins", "user"], terminal);
    expect(terminal.out()).toMatch(ANSI);
    const noColour = memoryIo(FIXTURES, { isTty: true, env: { NO_COLOR: "1" } });
    await runCli(["engines", "list", "--plugins", "user"], noColour);
    expect(noColour.out()).not.toMatch(ANSI);
  });

  it("warns on stderr about a plugin hidden by an earlier one of the same name", async () => {
    const cwd = await scratch({
      "plugins/context_engine/twin/plugin.yaml": "name: twin\n",
      "plugins/context_engine/twin/index.js": "",
      "more/twin/plugin.yaml": "name: twin\n",
      "more/twin/index.js": "",
    });
    const io = memoryIo(cwd);
    expect(await runCli(["engines", "list", "--plugins", "more"], io)).toBe(0);
    expect(io.err()).toBe(`warning: ${join(cwd, "more/twin")} is hidden by the engine "twin" found earlier (bundled engines win a name clash)\n`);
    const json = memoryIo(cwd);
    await runCli(["engines", "list", "--plugins", "more", "--json"], json);
    expect((JSON.parse(json.out()) as { shadowed: Listed[] }).shadowed.map((e) => e.directory)).toEqual([join(cwd, "more/twin")]);
  });

  const badInputs: Array<[string, Record<string, string>, string[], RegExp]> = [
    ["a --plugins directory that does not exist", {}, ["--plugins", "absent"], /absent: plugin directory does not exist/],
    ["a malformed plugin.yaml", { "p/x/plugin.yaml": "name: [\n", "p/x/index.js": "" }, ["--plugins", "p"], /p\/x\/plugin\.yaml: malformed YAML/],
    ["a manifest without name", { "p/x/plugin.yaml": "version: 1\n", "p/x/index.js": "" }, ["--plugins", "p"], /p\/x\/plugin\.yaml: missing "name"/],
  ];
  for (const [label, files, args, message] of badInputs) {
    it(`exits 2 with one line naming the problem for ${label}`, async () => {
      const cwd = await scratch({ ...files, ".keep": "" });
      const io = memoryIo(cwd);
      expect(await runCli(["engines", "list", ...args], io)).toBe(2);
      expect(io.out()).toBe("");
      expect(io.err()).toMatch(message);
      expect(io.err().trimEnd().split("\n")).toHaveLength(1);
    });
  }

  it("lists every other engine beside a plugin without an entry module, then exits 2 with one line naming it", async () => {
    const cwd = await scratch({ "p/x/plugin.yaml": "name: x\n", "p/y/plugin.yaml": "name: y\n", "p/y/index.cts": "" });
    const io = memoryIo(cwd);
    expect(await runCli(["engines", "list", "--plugins", "p"], io)).toBe(2);
    expect(io.out()).toMatch(/│ y\s+│/);
    expect(io.out()).toMatch(/│ truncate\s+│/);
    expect(io.err()).toBe(`ctxbench: ${join(cwd, "p/x")}: no entry module (index.ts, index.mts, index.cts, index.js, index.mjs, index.cjs, __init__.py)\n`);
    const json = memoryIo(cwd);
    expect(await runCli(["engines", "list", "--plugins", "p", "--json"], json)).toBe(2);
    const listed = JSON.parse(json.out()) as { engines: Listed[]; broken: Array<{ name: string; error: string }> };
    expect(listed.engines.map((e) => e.name)).toContain("y");
    expect(listed.broken.map((b) => b.name)).toEqual(["x"]);
  });

  it("with --load, reports whether each engine imports and the name it reports", async () => {
    const cwd = await scratch({
      "p/broken/plugin.yaml": "name: broken\n",
      "p/broken/index.js": 'throw new Error("cannot start");\n',
      "p/empty/plugin.yaml": "name: empty\n",
      "p/empty/index.mjs": "export const nothing = 0;\n",
    });
    const io = memoryIo(cwd);
    expect(await runCli(["engines", "list", "--plugins", "p", join(FIXTURE_USER), "--json", "--load"], io)).toBe(2);
    const { engines } = JSON.parse(io.out()) as { engines: Array<Listed & { load: unknown }> };
    const byName = Object.fromEntries(engines.map((e) => [e.name, e.load]));
    expect(byName["broken"]).toEqual({ ok: false, engineName: null, error: `${join(cwd, "p/broken/index.js")}: failed to import: cannot start` });
    expect(byName["empty"]).toMatchObject({ ok: false, error: expect.stringContaining("exports neither register(ctx) nor a ContextEngine subclass") });
    expect(byName["ts-engine"]).toEqual({ ok: true, engineName: "ts-engine", error: null });
    const table = memoryIo(cwd);
    await runCli(["engines", "list", "--plugins", "p", "--load"], table);
    expect(table.out()).toMatch(/│ broken .*│ no: /);
    // Every failure is one line of its own, after the whole listing.
    expect(table.err().trimEnd().split("\n")).toEqual([
      `ctxbench: ${join(cwd, "p/broken/index.js")}: failed to import: cannot start`,
      expect.stringMatching(/^ctxbench: .*p\/empty\/index\.mjs: no engine: exports neither register/),
    ]);
  });

  it("demands an action", async () => {
    const io = memoryIo(FIXTURES);
    expect(await runCli(["engines"], io)).toBe(2);
    expect(io.err()).toContain("Name an action: list.");
  });
});
