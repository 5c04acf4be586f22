import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { TruncateEngine } from "../../engines/truncate/index.ts";
import { CHECKS } from "../conformance/checks/index.ts";
import { PACKAGE_ROOT } from "../util/package-root.ts";
import { planConformance } from "./conformance-plan.ts";
import { describeConformance } from "./index.ts";

// The helper on a certified engine: every check is a test of this file, and each passes or skips.
describeConformance(() => new TruncateEngine(), { plugin: fileURLToPath(new URL("../../engines/truncate/", import.meta.url)) });

interface JsonReport {
  testResults: Array<{ assertionResults: Array<{ fullName: string; status: string; failureMessages: string[]; meta?: unknown }> }>;
}

describe("describeConformance", () => {
  it("fails the test of a broken MUST check with its message and evidence, warns on a SHOULD one, and passes the rest", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "ctxbench-vitest-")), "report.json");
    const config = join(PACKAGE_ROOT, "test/fixtures/vitest/vitest.config.ts");
    const vitest = join(PACKAGE_ROOT, "node_modules/vitest/vitest.mjs");
    await promisify(execFile)(process.execPath, [vitest, "run", "--config", config, "--reporter=json", `--outputFile=${out}`], { cwd: PACKAGE_ROOT }).catch((error: unknown) => {
      if ((error as { code?: unknown }).code !== 1) throw error; // 1: some tests failed, as they must
    });
    const tests = (JSON.parse(readFileSync(out, "utf8")) as JsonReport).testResults.flatMap((file) => file.assertionResults);
    const status = (name: string) => tests.filter((test) => test.fullName.startsWith(name)).map((test) => [test.fullName.replace(/ \[.*$/, ""), test.status]);
    expect(status("ctxbench conformance: abc-2 ")).toEqual(
      CHECKS.filter((check) => check.rule.startsWith("ABC")).map((check) => [`ctxbench conformance: abc-2 seed 1 ${check.id}`, check.id === "ABC-2/usage-echo" ? "failed" : "passed"]),
    );
    const failure = tests.find((test) => test.fullName.includes("ABC-2/usage-echo"))!.failureMessages.join("\n");
    expect(failure).toMatch(/ConformanceFailure: ABC-2\/usage-echo \[MUST\] fail: .*completion/);
    expect(failure).toMatch(/evidence:\n {2}probe:usage #\d+: /);
    expect(status("ctxbench conformance: abc-7 ")).toEqual([["ctxbench conformance: abc-7 seed 1 ABC-7/threshold-answer", "passed"]]);
    expect(status("ctxbench conformance: abc-7-strict ")).toEqual([["ctxbench conformance: abc-7-strict seed 1 ABC-7/threshold-answer", "failed"]]);
  });

  it("refuses an unknown check, scenario, seed or plugin directory when the test file is collected", () => {
    expect(() => planConformance({ checks: ["NOPE-1"] })).toThrow('describeConformance: no check matches "NOPE-1"');
    expect(() => planConformance({ scenarios: ["no-such-scenario"] })).toThrow('describeConformance: no catalogue scenario "no-such-scenario"');
    expect(() => planConformance({ seeds: [] })).toThrow("seeds must be a non-empty list of integers");
    expect(() => planConformance({ seeds: [1.5] })).toThrow("seeds must be a non-empty list of integers");
    expect(() => planConformance({ plugin: "/nowhere" })).toThrow("/nowhere holds no plugin.yaml");
  });

  it("plays only the scenarios named, and none by default", () => {
    expect(planConformance({}).withScenarios).toBe(false);
    const plan = planConformance({ scenarios: ["parallel-tool-calls"], checks: ["CMP-2"] });
    expect(plan.withScenarios).toBe(true);
    expect(new Set(plan.checks.flatMap((check) => check.scenarios))).toEqual(new Set(["parallel-tool-calls"]));
  });
});
