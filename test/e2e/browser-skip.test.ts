/**
 * A machine without Chromium: every browser test file skips with a line saying how to enable it,
 * so `npm ci && npm test` passes there; with CI set a missing browser fails instead.
 */
import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { childEnv, REPO } from "./support.ts";

const BROWSER_TESTS = readdirSync(join(REPO, "reports")).filter((file) => file.endsWith(".browser.test.ts")).map((file) => `reports/${file}`);
const NO_CHROMIUM = "/nonexistent/chromium";

function vitest(env: Record<string, string>): Promise<{ code: number; output: string }> {
  const { CI: _ci, ...inherited } = childEnv();
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [join(REPO, "node_modules/vitest/vitest.mjs"), "run", ...BROWSER_TESTS], { cwd: REPO, env: { ...inherited, CTXBENCH_CHROMIUM: NO_CHROMIUM, ...env }, timeout: 300_000 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== "number") return reject(error);
      resolve({ code: error ? (error.code as number) : 0, output: `${stdout}\n${stderr}` });
    });
  });
}

describe("browser tests without Chromium", () => {
  it("every one skips, each file printing how to enable it", async () => {
    expect(BROWSER_TESTS.length).toBeGreaterThanOrEqual(2);
    const { code, output } = await vitest({});
    expect(code, output).toBe(0);
    const skipLines = output.split("\n").filter((line) => line.startsWith("SKIPPED ") && line.includes(`headless Chromium not found at ${NO_CHROMIUM}`) && line.includes("set CTXBENCH_CHROMIUM"));
    expect(skipLines.length, output).toBe(BROWSER_TESTS.length);
    expect(output).toMatch(/Tests {2}\d+ skipped/);
  }, 300_000);

  it("fail with CI=true", async () => {
    const { code, output } = await vitest({ CI: "true" });
    expect(code, output).toBe(1);
    expect(output).toContain(`headless Chromium not found at ${NO_CHROMIUM}`);
  }, 300_000);
});
