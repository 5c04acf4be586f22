import { describe, expect, it } from "vitest";
import type { CliIo } from "./io.ts";
import { createProgress } from "./progress.ts";

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
});
