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
    expect(merged.benchmarks.map((suite) => suite.suite)).toEqual(["overhead", "cache", "throughput", "quality", "store", "profile"]);
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

describe("results that do not hang together are refused, saying which", () => {
  const half = (index: number) => shard(full, index, 2);
  const files = (...results: ResultJson[]) => results.map((result, i) => ({ source: `r${i + 1}.json`, result }));

  it("refuses an incomplete shard set: 1 of 2 shards is no certification", () => {
    expect(() => mergeResults(half(0))).toThrow('engine "compressor": shard 2/2 is missing (have 1/2); an incomplete set certifies nothing');
    expect(() => mergeResultFiles(files(half(1)))).toThrow("cannot merge r1.json: engine \"compressor\": shard 1/2 is missing (have 2/2)");
  });

  it("refuses a shard given twice, shards of different splits, and a whole run beside shards", () => {
    expect(() => mergeResultFiles(files(half(0), half(0), half(1)))).toThrow('engine "compressor": shard 1/2 appears twice (r1.json, r2.json)');
    expect(() => mergeResultFiles(files(half(0), shard(full, 1, 3)))).toThrow('engine "compressor": shards of different splits (1/2 in r1.json, 2/3 in r2.json)');
    const other = { ...full, certifications: full.certifications.filter((c) => c.engine.name === "compressor") };
    expect(() => mergeResultFiles(files(other, half(1)))).toThrow('engine "compressor" is certified in full in r1.json and in shards in r2.json');
  });

  it("refuses shards certified under different seeds or check selections (runs of another seed or build: above)", () => {
    const seeds = half(1);
    seeds.certifications = seeds.certifications.map((c) => ({ ...c, seeds: [1, 2] }));
    expect(() => mergeResultFiles(files(half(0), seeds))).toThrow('engine "compressor" was certified under different seeds (r1.json: 42; r2.json: 1, 2)');
    const selection = half(1);
    selection.certifications = selection.certifications.map((c) => ({ ...c, checkSetDigest: "0000000000000000" }));
    expect(() => mergeResultFiles(files(half(0), selection))).toThrow(/engine "compressor" was certified on different check selections \(r1\.json [0-9a-f]{16}, r2\.json 0000000000000000\)/);
  });
});

