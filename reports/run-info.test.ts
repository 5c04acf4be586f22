import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RESULT_SCHEMA_VERSION, validateResult } from "./result.ts";
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
});
