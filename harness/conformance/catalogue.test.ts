import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CHECKS, selectChecks } from "./checks/index.ts";
import { abridge } from "./excerpt.ts";
import { ExpectationsError, readExpectations, updatedExpectations, writeExpectations } from "./expectations.ts";
import { isUnexpected, verdictOf } from "./verdict.ts";
import { PROBES } from "./probes/index.ts";
import { ENGINE_RULES, RULES } from "./rules.ts";
import { parseShard, shardChecks } from "./shard.ts";
import type { EvaluatedCheck } from "./types.ts";
import { listScenarios } from "../../scenarios/catalogue/index.ts";

const scratch = mkdtempSync(join(tmpdir(), "ctxbench-catalogue-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the check catalogue", () => {
  it("has at least one check for every rule that binds engines", () => {
    const covered = new Set(CHECKS.map((check) => check.rule));
    expect(ENGINE_RULES.filter((rule) => !covered.has(rule.id)).map((rule) => rule.id)).toEqual([]);
  });

  it("gives every check a unique id that starts with its rule, and the rule's level", () => {
    expect(new Set(CHECKS.map((check) => check.id)).size).toBe(CHECKS.length);
    for (const check of CHECKS) {
      expect(check.id.startsWith(`${check.rule}/`), check.id).toBe(true);
      const rule = RULES.find((entry) => entry.id === check.rule);
      expect(rule?.binds, check.id).toBe("engine");
      expect(check.level, check.id).toBe(rule?.level);
    }
  });

  it("names only probes and catalogue scenarios that exist", () => {
    const scenarios = new Set(listScenarios().map((scenario) => scenario.name));
    for (const check of CHECKS) {
      for (const probe of check.probes) expect(PROBES.has(probe), `${check.id} → ${probe}`).toBe(true);
      for (const scenario of check.scenarios) expect(scenarios.has(scenario), `${check.id} → ${scenario}`).toBe(true);
      expect(check.probes.length + check.scenarios.length, check.id).toBeGreaterThan(0);
    }
  });

  it("keeps rule ids unique and states every rule", () => {
    expect(new Set(RULES.map((rule) => rule.id)).size).toBe(RULES.length);
    for (const rule of RULES) expect(rule.statement.length).toBeGreaterThan(20);
  });

  it("selects checks by id, rule or prefix", () => {
    expect(selectChecks(["CMP-2/split-batch"]).map((c) => c.id)).toEqual(["CMP-2/split-batch"]);
    expect(selectChecks(["CMP-2"]).every((c) => c.rule === "CMP-2")).toBe(true);
    expect(selectChecks(["CMP-2"])).toHaveLength(5);
    expect(selectChecks(["THR"]).map((c) => c.rule)).toEqual(["THR-1", "THR-2", "THR-4"]);
    expect(selectChecks([])).toHaveLength(CHECKS.length);
    expect(selectChecks(["NOPE-1"])).toEqual([]);
  });

  it("evaluates purely: the same runs give the same evaluation", () => {
    const check = CHECKS.find((c) => c.id === "ABC-2/usage-echo")!;
    const trace = [
      { seq: 0, session: "s", type: "engine-call", hook: "update_from_response", args: [], resultKind: "undefined", result: null, error: null, async: false, durationMs: 0,
        stateAfter: { last_prompt_tokens: 10, last_completion_tokens: 0, last_total_tokens: 12, threshold_tokens: 75, context_length: 100, compression_count: 0 },
        detail: { case: "full", usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 } } },
    ] as never;
    const runs = [{ source: "probe:usage", seed: 1, scenario: null, trace }];
    const first = check.evaluate(runs);
    expect(first.outcome).toBe("fail");
    expect(first.message).toContain("last_completion_tokens is 0, usage said 2");
    expect(first.evidence[0]?.seq).toBe(0);
    expect(check.evaluate(runs)).toEqual(first);
  });
});

describe("shards", () => {
  it("parses i/n and refuses anything else", () => {
    expect(parseShard("2/3")).toEqual({ index: 2, count: 3 });
    for (const bad of ["0/3", "4/3", "1/0", "a/b", "1", "1/2/3"]) expect(parseShard(bad), bad).toBeNull();
  });

  it("splits the catalogue into disjoint shards that cover it, keeping checks of one run together", () => {
    const shards = [1, 2, 3].map((index) => shardChecks(CHECKS, { index, count: 3 }));
    const ids = shards.flat().map((check) => check.id);
    expect(ids.sort()).toEqual(CHECKS.map((check) => check.id).sort());
    for (const shard of shards) expect(shard.length).toBeGreaterThan(0);
    const owner = (id: string) => shards.findIndex((shard) => shard.some((check) => check.id === id));
    expect(owner("CMP-2/split-batch")).toBe(owner("CMP-2/orphaned-result"));
  });
});

describe("expectations", () => {
  const ids = CHECKS.map((check) => check.id);

  it("reads check id → {expected, reason, link} and warns about unknown ids", () => {
    const path = join(scratch, "ok.yaml");
    writeFileSync(path, "CMP-7/focus-kept:\n  expected: fail\n  reason: the engine keeps no topic index\n  link: https://example.org/issue/1\nOLD-1/retired:\n  expected: fail\n  reason: gone\n");
    const { expectations, warnings } = readExpectations(path, ids);
    expect(expectations.get("CMP-7/focus-kept")).toEqual({ expected: "fail", reason: "the engine keeps no topic index", link: "https://example.org/issue/1" });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("OLD-1/retired");
  });

  it.each([
    ["CMP-1/message-shape: fail\n", "must be a mapping"],
    ["CMP-1/message-shape:\n  expected: maybe\n  reason: x\n", "expected must be one of"],
    ["CMP-1/message-shape:\n  expected: fail\n", "needs a reason"],
    ["- a\n- b\n", "expected a mapping"],
    ["a: [unclosed\n", "ok.yaml"],
  ])("refuses %j", (text, message) => {
    const path = join(scratch, "ok.yaml");
    writeFileSync(path, text);
    expect(() => readExpectations(path, ids)).toThrow(ExpectationsError);
    expect(() => readExpectations(path, ids)).toThrow(message);
  });

  it("counts an outcome as unexpected when it differs from the listed one, or is not a pass or skip with none listed", () => {
    expect(isUnexpected("pass", null)).toBe(false);
    expect(isUnexpected("skipped", null)).toBe(false);
    expect(isUnexpected("fail", null)).toBe(true);
    expect(isUnexpected("indeterminate", null)).toBe(true);
    expect(isUnexpected("fail", "fail")).toBe(false);
    expect(isUnexpected("pass", "fail")).toBe(true);
  });

  it("decides the verdict: an unexpected MUST outcome other than a pass, or any integrity finding, is not certified", () => {
    const check = (level: "MUST" | "SHOULD", outcome: EvaluatedCheck["outcome"], unexpected: boolean) => ({ level, outcome, unexpected });
    expect(verdictOf([check("MUST", "pass", false), check("SHOULD", "fail", true)])).toBe("certified");
    expect(verdictOf([check("MUST", "pass", true)])).toBe("certified");
    expect(verdictOf([check("MUST", "fail", false)])).toBe("certified");
    expect(verdictOf([check("MUST", "timeout", true)])).toBe("not-certified");
    expect(verdictOf([check("MUST", "pass", false)], 1)).toBe("not-certified");
  });

  it("updates: lists every non-passing outcome, keeping reasons of unchanged ones and entries of checks that did not run, and round-trips", () => {
    const result = (id: string, outcome: EvaluatedCheck["outcome"], message = "m"): EvaluatedCheck => ({ id, rule: id.split("/")[0]!, level: "MUST", title: "t", outcome, message, evidence: [], durationMs: 0, sources: [], seeds: [1], shownBy: [] });
    const previous = new Map([
      ["CMP-1/message-shape", { expected: "fail" as const, reason: "known", link: "L" }],
      ["CMP-4/no-growth", { expected: "fail" as const, reason: "fixed since" }],
      ["THR-4/nothing-published-after-timeout", { expected: "timeout" as const, reason: "not run this time", link: "https://example.invalid/1" }],
    ]);
    const next = updatedExpectations([result("CMP-1/message-shape", "fail"), result("CMP-3/system-prompt-kept", "error", "it threw"), result("CMP-4/no-growth", "pass"), result("SEL-6/inputs-unmutated", "skipped")], previous);
    expect(next).toEqual({
      "CMP-1/message-shape": { expected: "fail", reason: "known", link: "L" },
      "CMP-3/system-prompt-kept": { expected: "error", reason: "observed: it threw" },
      "THR-4/nothing-published-after-timeout": { expected: "timeout", reason: "not run this time", link: "https://example.invalid/1" },
    });
    const path = join(scratch, "written.yaml");
    writeExpectations(path, next, "demo");
    expect(readFileSync(path, "utf8")).toContain('"demo"');
    expect(Object.fromEntries(readExpectations(path, ids).expectations)).toEqual(next);
  });
});

describe("reports helpers", () => {
  it("abridges long strings and lists deterministically and drops durations", () => {
    const value = { durationMs: 5, text: "x".repeat(1000), list: Array.from({ length: 20 }, (_, i) => i) };
    const short = abridge(value) as Record<string, unknown>;
    expect(short["durationMs"]).toBeUndefined();
    expect(String(short["text"])).toContain("(1000 chars)");
    expect(short["list"]).toEqual([0, 1, 2, "… 14 more …", 17, 18, 19]);
    expect(abridge(value)).toEqual(short);
  });

});
