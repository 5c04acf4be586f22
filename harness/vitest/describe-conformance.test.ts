import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { CHECKS } from "../conformance/checks/index.ts";
import { certifyEngine } from "../pipeline/certify.ts";
import { PACKAGE_ROOT } from "../util/package-root.ts";
import { planConformance } from "./conformance-plan.ts";
import { describeConformance } from "./index.ts";

// The helper on a certified engine: every check is a test of this file, and each passes or skips.
describeConformance(fileURLToPath(new URL("../../engines/truncate/", import.meta.url)));

interface JsonReport {
  testResults: Array<{ assertionResults: Array<{ fullName: string; status: string; failureMessages: string[] }> }>;
}

const FIXTURE = join(PACKAGE_ROOT, "test/fixtures/vitest");

/** The fixture suite (test/fixtures/vitest) run by vitest as an author runs it: each test's name → status and failure. */
async function runFixtureSuite(): Promise<Array<{ fullName: string; status: string; failureMessages: string[] }>> {
  const out = join(mkdtempSync(join(tmpdir(), "ctxbench-vitest-")), "report.json");
  const vitest = join(PACKAGE_ROOT, "node_modules/vitest/vitest.mjs");
  await promisify(execFile)(process.execPath, [vitest, "run", "--config", join(FIXTURE, "vitest.config.ts"), "--reporter=json", `--outputFile=${out}`], { cwd: FIXTURE }).catch((error: unknown) => {
    if ((error as { code?: unknown }).code !== 1) throw error; // 1: some tests failed, as they must
  });
  return (JSON.parse(readFileSync(out, "utf8")) as JsonReport).testResults.flatMap((file) => file.assertionResults);
}

describe("describeConformance", () => {
  it("judges every check as certify does (same pipeline, engine in a player): a broken MUST check fails with its message, evidence and replay command, a SHOULD one warns", async () => {
    const [tests, abc2, abc7] = await Promise.all([
      runFixtureSuite(),
      certifyEngine({ cwd: FIXTURE, engine: "abc-2", pluginDirs: ["plugins"], checks: ["ABC"], scenarios: false }),
      certifyEngine({ cwd: FIXTURE, engine: "abc-7", pluginDirs: ["plugins"], checks: ["ABC-7"], scenarios: false }),
    ]);
    const status = (group: string) => tests.filter((test) => test.fullName.startsWith(`ctxbench conformance: ${group} `)).map((test) => [test.fullName.replace(/ \[.*$/, ""), test.status]);
    const abcChecks = CHECKS.filter((check) => check.rule.startsWith("ABC"));
    // One test per check, then the integrity test; a check certify fails unexpectedly is the failing test.
    const certified = new Map(abc2.result.certifications[0]!.checks.map((check) => [check.id, check]));
    expect(status("abc-2")).toEqual([
      ...abcChecks.map((check) => [`ctxbench conformance: abc-2 seed 1 ${check.id}`, certified.get(check.id)!.unexpected && check.level === "MUST" ? "failed" : certified.get(check.id)!.outcome === "skipped" ? "skipped" : "passed"]),
      ["ctxbench conformance: abc-2 seed 1 integrity: the engine left the harness, its channel and files outside its sandbox alone", "passed"],
    ]);
    expect([...certified.values()].filter((check) => check.unexpected).map((check) => check.id)).toEqual(["ABC-2/usage-echo"]);
    const failure = tests.find((test) => test.fullName.includes("ABC-2/usage-echo"))!.failureMessages.join("\n");
    expect(failure).toContain(`ConformanceFailure: ABC-2/usage-echo [MUST] fail: ${certified.get("ABC-2/usage-echo")!.message}`);
    expect(failure).toMatch(/evidence:\n {2}probe:usage #\d+: /);
    expect(failure).toContain("replay: npx ctxbench certify --engine abc-2 --plugins plugins --checks ABC-2/usage-echo --seed 1");
    // ABC-7 (SHOULD) fails in certify too: a warning by default, a failure with should: "fail".
    expect(abc7.result.certifications[0]!.checks.map((check) => [check.id, check.outcome, check.unexpected])).toEqual([["ABC-7/threshold-answer", "fail", true]]);
    expect(status("abc-7")).toEqual([
      ["ctxbench conformance: abc-7 seed 1 ABC-7/threshold-answer", "passed"],
      ["ctxbench conformance: abc-7 seed 1 integrity: the engine left the harness, its channel and files outside its sandbox alone", "passed"],
    ]);
    expect(status("abc-7-strict").map(([, outcome]) => outcome)).toEqual(["failed", "passed"]);
  });

  it("refuses an engine factory, an unknown check, scenario, seed or plugin directory when the test file is collected", () => {
    const truncate = join(PACKAGE_ROOT, "engines/truncate");
    expect(() => planConformance((() => null) as unknown as string)).toThrow("describeConformance takes the plugin directory");
    expect(() => planConformance(truncate, { checks: ["NOPE-1"] })).toThrow('describeConformance: no check matches "NOPE-1"');
    expect(() => planConformance(truncate, { scenarios: ["no-such-scenario"] })).toThrow('describeConformance: no catalogue scenario "no-such-scenario"');
    expect(() => planConformance(truncate, { seeds: [] })).toThrow("seeds must be a non-empty list of integers");
    expect(() => planConformance(truncate, { seeds: [1.5] })).toThrow("seeds must be a non-empty list of integers");
    expect(() => planConformance("/nowhere")).toThrow("/nowhere is not a directory");
    expect(() => planConformance(join(PACKAGE_ROOT, "engines"))).toThrow("holds no plugin.yaml");
  });

  it("plans certify's request: the plugin's parent as --plugins (relative to the working directory), its name as --engine, probes only unless scenarios are asked for", () => {
    const plan = planConformance(join(PACKAGE_ROOT, "engines/truncate"), { seeds: [1, 2] }, PACKAGE_ROOT);
    expect(plan.request(2)).toMatchObject({ cwd: PACKAGE_ROOT, engine: "truncate", pluginDirs: ["engines"], scenarios: false, seeds: [2], isolate: true });
    expect(planConformance(join(PACKAGE_ROOT, "engines/truncate"), { scenarios: ["parallel-tool-calls"] }, PACKAGE_ROOT).request(1).scenarios).toEqual(["parallel-tool-calls"]);
    expect(planConformance(join(PACKAGE_ROOT, "engines/truncate"), { scenarios: true }, join(PACKAGE_ROOT, "test")).request(1)).toMatchObject({ scenarios: true, pluginDirs: [join(PACKAGE_ROOT, "engines")] });
  });
});
