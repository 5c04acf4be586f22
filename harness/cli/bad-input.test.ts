import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, it } from "vitest";
import { badInputRows } from "./bad-input-rows.test-support.ts";
import { runCli } from "./main.ts";
import { memoryIo } from "./test-io.ts";
import { loadedModuleOf } from "../util/module-file.ts";

// Every bad-input row through the CLI's parser, validators and one error handler, in-process: the
// process boundary (bin, exit status, real stdio) is proven once per error class by
// test/e2e/bad-input.test.ts; starting Node 130 times proved it no further.
const work = mkdtempSync(join(tmpdir(), "ctxbench-bad-input-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
// The contract module the players load (a JavaScript plugin gets no TypeScript loader in a compiled player, as under the CLI).
const CONTRACT = pathToFileURL(loadedModuleOf(fileURLToPath(new URL("../contract/context-engine.ts", import.meta.url)))).href;

let cwds = 0;
describe("bad inputs are exit 2, one line, nothing written (runCli in-process)", () => {
  it.for(badInputRows(work, CONTRACT).map((row) => [row.label, row] as const))("%s", { timeout: 60_000 }, async ([, row], { task, expect }) => {
    const before = new Set(readdirSync(work));
    const cwd = join(work, `${cwds++}-cwd-in-process`);
    mkdirSync(cwd);
    const io = memoryIo(cwd);
    const args = row.args();
    const started = performance.now();
    const code = await runCli(args, io);
    const lineCount = io.err().trimEnd().split("\n").length;
    // The fault suite's figures (test/faults/figures.ts) count every row from here.
    task.meta.fault = {
      suite: `bad input: ${args[0] === "scenarios" || args[0] === "engines" ? args.slice(0, 2).join(" ") : args[0]}`,
      outcome: `exit ${code}, ${lineCount} line${lineCount === 1 ? "" : "s"}`,
      seconds: (performance.now() - started) / 1000,
    };
    expect(io.err()).not.toMatch(/internal error|bug in ctxbench/);
    expect(code, io.err()).toBe(2);
    const lines = io.err().trimEnd().split("\n");
    expect(lines, io.err()).toHaveLength(1);
    expect(lines[0]).toMatch(/^ctxbench: /);
    expect(lines[0]).toMatch(row.stderr);
    expect(io.out()).toBe("");
    for (const path of row.absent ?? []) expect(existsSync(join(cwd, path)), path).toBe(false);
    expect(readdirSync(cwd), "written into the working directory").toEqual([]);
    const created = readdirSync(work).filter((name) => !before.has(name) && !/^\d+-/.test(name));
    expect(created).toEqual([]);
  });
});
