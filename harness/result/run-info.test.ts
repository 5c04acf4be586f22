import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RESULT_SCHEMA_VERSION } from "./schema.ts";
import { validateResult } from "./validate.ts";
import { collectRunInfo, gitSha } from "./run-info.ts";

describe("collectRunInfo", () => {
  it("describes this machine in a shape the result validator accepts", () => {
    const runInfo = collectRunInfo({ seed: 7, command: "ctxbench bench --suite store", engines: [{ name: "lcm", version: "0.1.0" }] });
    expect(runInfo.node).toBe(process.version);
    expect(runInfo.cores).toBeGreaterThanOrEqual(1);
    expect(runInfo.tool.name).toBe("ctxbench");
    expect(validateResult({ schemaVersion: RESULT_SCHEMA_VERSION, runInfo, certifications: [], benchmarks: [] }).ok).toBe(true);
  });

  it("gives null for the git sha outside a checkout", () => {
    expect(gitSha(mkdtempSync(join(tmpdir(), "ctxbench-nogit-")))).toBeNull();
  });

  it("gives the sha of a checkout's top level, and null inside it: an installed ctxbench is not its user's checkout", () => {
    const repo = mkdtempSync(join(tmpdir(), "ctxbench-git-"));
    const git = (...args: string[]) => execFileSync("git", ["-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", ...args], { encoding: "utf8" }).trim();
    git("init", "-q");
    git("commit", "-q", "--allow-empty", "-m", "x");
    mkdirSync(join(repo, "node_modules/ctxbench"), { recursive: true });
    expect(gitSha(repo)).toBe(git("rev-parse", "HEAD"));
    expect(gitSha(join(repo, "node_modules/ctxbench"))).toBeNull();
  });
});
