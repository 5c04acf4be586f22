import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ctxbench as runCli } from "./support.ts";
import { sampleResult } from "../../harness/result/sample-result.ts";


const ctxbench = (args: string[], cwd: string) => runCli(args, { cwd, timeoutMs: 60_000 });

describe("ctxbench report as a process", () => {
  it("writes a self-contained HTML report from a result file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ctxbench-e2e-report-"));
    writeFileSync(join(dir, "result.json"), JSON.stringify(sampleResult()));
    const outcome = await ctxbench(["report", "result.json", "--format", "html", "--out", "report.html"], dir);
    expect(outcome, outcome.stderr).toMatchObject({ code: 0, stdout: "wrote report.html (html)\n" });
    const html = readFileSync(join(dir, "report.html"), "utf8");
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).toContain('data-chart="throughput"');
  });

  it("exits 2 naming the file and the JSON path of a bad result", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ctxbench-e2e-report-"));
    const bad = sampleResult();
    (bad.runInfo as { cores: unknown }).cores = "two";
    writeFileSync(join(dir, "bad.json"), JSON.stringify(bad));
    const outcome = await ctxbench(["report", "bad.json", "--format", "markdown"], dir);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toBe('ctxbench: bad.json: $.runInfo.cores: expected an integer, got the string "two"\n');
    expect(outcome.stdout).toBe("");
  });
});
