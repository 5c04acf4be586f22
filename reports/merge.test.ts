import { describe, expect, it } from "vitest";
import { sampleResult } from "../harness/result/sample-result.ts";
import { MergeError, mergeResultFiles, mergeResults } from "./merge.ts";
import { certificationOf, validateResult, type ResultJson } from "../harness/result/index.ts";

const full = sampleResult({ withBenchmarks: false });

function shard(result: ResultJson, index: number, of: number): ResultJson {
  return {
    ...result,
    certifications: result.certifications.map((certification) =>
      certificationOf(
        certification.engine,
        certification.checks.filter((_, position) => position % of === index),
        { ...certification, shard: { index: index + 1, count: of } },
      ),
    ),
  };
}

describe("mergeResults", () => {
  it("joins check shards of the same engines back into the full certification, whatever the shard order", () => {
    const merged = mergeResults(shard(full, 1, 2), shard(full, 0, 2));
    const byId = (result: ResultJson) => result.certifications.map((c) => ({ ...c, checks: [...c.checks].sort((a, b) => a.id.localeCompare(b.id)) }));
    expect(byId(merged)).toEqual(byId(full));
    expect(merged.certifications[1]!.verdict).toBe("not-certified");
    expect(validateResult(merged).ok).toBe(true);
  });

  it("joins a certification and a benchmark run", () => {
    const bench = sampleResult({ withCertifications: false });
    const merged = mergeResults(full, bench);
    expect(merged.certifications).toHaveLength(3);
    expect(merged.benchmarks.map((suite) => suite.suite)).toEqual(["overhead", "cache", "throughput", "quality", "store"]);
  });

  it("unions per-engine suites of different engines", () => {
    const a = sampleResult({ engines: ["compressor"], withCertifications: false });
    const b = sampleResult({ engines: ["lcm"], withCertifications: false });
    b.benchmarks = b.benchmarks.filter((suite) => suite.suite === "cache" || suite.suite === "throughput");
    const merged = mergeResults(a, b);
    const cache = merged.benchmarks.find((suite) => suite.suite === "cache");
    expect(cache?.suite === "cache" && cache.engines.map((engine) => engine.engine)).toEqual(["compressor", "lcm"]);
    expect(merged.runInfo.engines.map((engine) => engine.name)).toEqual(["compressor", "lcm"]);
  });

  it("refuses a check, a whole-run suite or an engine version seen twice", () => {
    expect(() => mergeResults(full, full)).toThrow(/check "ABC-1\/base-class-and-members" of engine "compressor" appears in two results/);
    const bench = sampleResult({ withCertifications: false });
    expect(() => mergeResults(bench, bench)).toThrow(MergeError);
    const other = sampleResult({ withBenchmarks: false });
    other.runInfo.engines = [{ name: "lcm", version: "9.9.9" }];
    expect(() => mergeResults(full, other)).toThrow(/two versions/);
  });
});

describe("mergeResults refuses results that are not parts of one run", () => {
  const varied = (edit: (result: ResultJson) => void): ResultJson => {
    const result = shard(full, 1, 2);
    result.runInfo = { ...result.runInfo, tool: { ...result.runInfo.tool } };
    edit(result);
    return result;
  };
  const cases: Array<[string, (result: ResultJson) => void, RegExp]> = [
    ["seeds", (result) => void (result.runInfo.seed = 2), /different seeds: 42 \(result 1\), 2 \(result 2\)$/],
    ["ctxbench versions", (result) => void (result.runInfo.tool.version = "9.0.0"), /different ctxbench versions: \S+ \(result 1\), 9\.0\.0 \(result 2\)$/],
    ["ctxbench commits", (result) => void (result.runInfo.gitSha = "f".repeat(40)), /different ctxbench commits: \S+ \(result 1\), f{40} \(result 2\)$/],
    ["commits, one of them outside a git checkout", (result) => void (result.runInfo.gitSha = null), /different ctxbench commits: \S+ \(result 1\), none \(not a git checkout\) \(result 2\)$/],
  ];
  it.each(cases)("of different %s", (_what, edit, message) => {
    expect(() => mergeResults(shard(full, 0, 2), varied(edit))).toThrow(message);
  });

  it("names the files that differ when merging files", () => {
    const files = [
      { source: "a.json", result: shard(full, 0, 2) },
      { source: "b.json", result: varied((result) => void (result.runInfo.seed = 7)) },
    ];
    expect(() => mergeResultFiles(files)).toThrow("cannot merge a.json, b.json: they come from different seeds: 42 (a.json), 7 (b.json)");
  });
});
