import { describe, expect, it } from "vitest";
import { createRequire } from "node:module";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FIXTURES } from "../plugins/test-support.ts";
import { CtxbenchError, NegativeVerdict } from "../util/errors.ts";
import { COMMANDS } from "./commands.ts";
import { runMainJob, type MainJobStep } from "./main-job.ts";
import { runCli } from "./main.ts";
import { memoryIo } from "./test-io.ts";

const { version } = createRequire(import.meta.url)("../../package.json") as { version: string };

describe("runCli", () => {
  it("exits 2 naming an unknown command", async () => {
    const io = memoryIo(FIXTURES);
    expect(await runCli(["foo"], io)).toBe(2);
    expect(io.err()).toMatch(/^ctxbench: Unknown command "foo"\. Commands: (.+, )?engines, (.+, )?main\b.* See "ctxbench --help" for usage\.\n$/);
    expect(io.out()).toBe("");
  });
  it("shows control characters in a refusal as escapes: an ESC or NUL from a file or an engine is never obeyed", async () => {
    const io = memoryIo(FIXTURES);
    expect(await runCli(["scenarios", "show", "evil\u001b[2J\u0000name"], io)).toBe(2);
    expect(io.err()).not.toMatch(/[\u0000\u001b]/);
    expect(io.err()).toContain("evil\\u001b[2J\\u0000name");
    expect(io.err().trimEnd().split("\n")).toHaveLength(1);
  });
  it("keeps a refusal one line per problem: a newline inside a problem (a parser's excerpt of a file) is shown as \\n", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ctxbench-refusal-"));
    writeFileSync(join(dir, "bad.json"), "x\ny");
    const io = memoryIo(dir);
    expect(await runCli(["report", "bad.json"], io)).toBe(2);
    rmSync(dir, { recursive: true });
    expect(io.err().trimEnd().split("\n")).toEqual([expect.stringMatching(/^ctxbench: bad\.json: \$: not JSON: .*x\\ny/)]);
  });
  it("exits 2 without a command and for an unknown option", async () => {
    expect(await runCli([], memoryIo(FIXTURES))).toBe(2);
    expect(await runCli(["engines", "list", "--nope"], memoryIo(FIXTURES))).toBe(2);
  });
  it("prints help listing the commands and the exit codes", async () => {
    const io = memoryIo(FIXTURES);
    expect(await runCli(["--help"], io)).toBe(0);
    expect(io.out()).toMatch(/ctxbench engines/);
    expect(io.out()).toMatch(/ctxbench main/);
    expect(io.out()).toMatch(/Exit codes: 0 ok/);
  });
  it("lists each command in the help as its own module declares it, without loading the module", async () => {
    for (const entry of COMMANDS) {
      const module = (await entry.load())(memoryIo(FIXTURES));
      expect([module.command, module.describe]).toEqual([entry.command, entry.describe]);
    }
  });
  it("prints the package version", async () => {
    const io = memoryIo(FIXTURES);
    expect(await runCli(["--version"], io)).toBe(0);
    expect(io.out().trim()).toBe(version);
  });
});

describe("ctxbench main", () => {
  it("lists the engines as its first step", async () => {
    const io = memoryIo(FIXTURES);
    expect(await runCli(["main", "--step", "engines", "--plugins", "user"], io)).toBe(0);
    expect(io.out()).toMatch(/^== Context engines\n/);
    expect(io.out()).toMatch(/ts-engine/);
  });
  it("prints one JSON object of step results with --json", async () => {
    const io = memoryIo(FIXTURES);
    expect(await runCli(["main", "--step", "engines", "--plugins", "user", "--json"], io)).toBe(0);
    const result = JSON.parse(io.out()) as { engines: Array<{ name: string }> };
    expect(result.engines.map((e) => e.name)).toEqual(expect.arrayContaining(["js-engine", "ts-engine"]));
  });
  it("exits 2 for a missing --plugins directory", async () => {
    const io = memoryIo(FIXTURES);
    expect(await runCli(["main", "--plugins", "absent"], io)).toBe(2);
  });
});

describe("runMainJob", () => {
  const step = (id: string, run: MainJobStep["run"]): MainJobStep => ({ id, title: `Step ${id}`, run });

  it("runs the steps in order and keeps going after a negative verdict, then reports it", async () => {
    const ran: string[] = [];
    const io = memoryIo(FIXTURES);
    const steps = [
      step("a", async () => void ran.push("a")),
      step("b", async () => {
        ran.push("b");
        throw new NegativeVerdict("not certified");
      }),
      step("c", async (context) => {
        ran.push("c");
        context.results["c"] = 1;
      }),
    ];
    const error = await runMainJob({ io, pluginDirs: [], json: false, out: "unused", seed: 1, quick: true, quiet: true, bounds: { timeoutMs: 1000, maxTimeMs: 1000 }, isolate: true, results: {} }, steps).catch((e: unknown) => e);
    expect(ran).toEqual(["a", "b", "c"]);
    expect(error).toBeInstanceOf(NegativeVerdict);
    expect((error as CtxbenchError).exitCode).toBe(1);
    expect(io.out()).toBe("== Step a\n== Step b\nStep b: not certified\n== Step c\n");
  });
  it("stops at any other error", async () => {
    const ran: string[] = [];
    const steps = [
      step("a", async () => {
        throw new Error("broken");
      }),
      step("b", async () => void ran.push("b")),
    ];
    await expect(runMainJob({ io: memoryIo(FIXTURES), pluginDirs: [], json: false, out: "unused", seed: 1, quick: true, quiet: true, bounds: { timeoutMs: 1000, maxTimeMs: 1000 }, isolate: true, results: {} }, steps)).rejects.toThrow("broken");
    expect(ran).toEqual([]);
  });
});
