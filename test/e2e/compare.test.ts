import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseResult } from "../../harness/result/index.ts";
import { ctxbench } from "./support.ts";

describe("ctxbench compare (as a process)", () => {
  it("certifies and benchmarks an engine into one result and writes every report format", async () => {
    const out = mkdtempSync(join(tmpdir(), "ctxbench-compare-e2e-"));
    const run = await ctxbench(["compare", "--engine", "truncate", "--suite", "overhead", "--quick", "--format", "markdown", "--out", out]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/\| *CMP-2\/orphaned-result/);
    for (const file of ["result.json", "report.html", "report.md", "junit.xml", "report.tap", "report.txt"]) expect(existsSync(join(out, file)), file).toBe(true);
    const result = parseResult(readFileSync(join(out, "result.json"), "utf8"));
    expect(result.certifications.map((c) => [c.engine.name, c.verdict])).toEqual([["truncate", "certified"]]);
    expect(result.benchmarks.map((b) => b.suite)).toEqual(["overhead"]);
    expect(readFileSync(join(out, "report.html"), "utf8")).toMatch(/<svg/);
  }, 240_000);

  it("refuses to compare nothing", async () => {
    const run = await ctxbench(["compare", "--no-bench", "--no-certify"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/leave nothing to compare/);
  });

  it("refuses scenarios for certifications it will not run, and scenarios no check reads", async () => {
    const [uncertified, unread] = await Promise.all([
      ctxbench(["compare", "--engine", "truncate", "--no-certify", "--suite", "overhead", "--scenarios", "basic"]),
      ctxbench(["compare", "--engine", "truncate", "--no-bench", "--checks", "ABC-2", "--scenarios", "basic"]),
    ]);
    expect([uncertified.code, unread.code]).toEqual([2, 2]);
    expect(uncertified.stderr.trim()).toBe("ctxbench: --scenarios limits what the certifications play, and --no-certify leaves none");
    expect(unread.stderr.trim()).toBe('ctxbench: no selected check reads the scenario "basic"; ctxbench checks list shows what each check reads');
  });
});
