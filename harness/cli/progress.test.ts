import { describe, expect, it } from "vitest";
import type { CliIo } from "./io.ts";
import { createProgress } from "./progress.ts";
import { runCli } from "./main.ts";
import { memoryIo } from "./test-io.ts";

function io(isTty: boolean, env: Record<string, string> = {}): CliIo & { err: string[] } {
  const err: string[] = [];
  return { err, stdout: () => {}, stderr: (text) => void err.push(text), cwd: "/", env, isTty };
}

describe("progress lines", () => {
  it("go to stderr on a terminal", () => {
    const terminal = io(true);
    createProgress(terminal).step("suite 1/5: overhead");
    expect(terminal.err).toEqual(["… suite 1/5: overhead\n"]);
  });

  it("stay quiet when piped, under CI=true, or with --quiet", () => {
    for (const [target, options] of [[io(false), {}], [io(true, { CI: "true" }), {}], [io(true), { quiet: true }]] as const) {
      createProgress(target, options).step("anything");
      expect(target.err).toEqual([]);
    }
  });

  it("every command that prints them takes --quiet", async () => {
    for (const command of ["certify", "compare", "bench", "main"]) {
      const io = memoryIo("/");
      expect(await runCli([command, "--help"], io)).toBe(0);
      expect(io.out(), command).toMatch(/--quiet\s+No progress lines/);
    }
  });
});
