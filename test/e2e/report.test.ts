import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { sampleResult } from "../../reports/fixtures/sample-result.ts";

const run = promisify(execFile);
const REPO = fileURLToPath(new URL("../../", import.meta.url));
const env = { ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith("npm_"))), NO_COLOR: "1" };

async function ctxbench(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [join(REPO, "bin/ctxbench.mjs"), ...args], { cwd, env, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    if (typeof failed.code !== "number") throw error;
    return { code: failed.code, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

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
    expect(outcome.stderr).toBe('ctxbench: bad.json: $.runInfo.cores: expected a finite number, got the string "two"\n');
    expect(outcome.stdout).toBe("");
  });
});
