import { describe, expect, it } from "vitest";
import { atAGlance, glanceRow } from "./at-a-glance.ts";
import { sampleResult } from "../harness/result/sample-result.ts";
import type { BenchSuiteResult, ResultJson } from "../harness/result/index.ts";

const suiteOf = <S extends BenchSuiteResult["suite"]>(result: ResultJson, name: S) => result.benchmarks.find((suite) => suite.suite === name) as Extract<BenchSuiteResult, { suite: S }>;

describe("the at-a-glance model", () => {
  it("gives every engine one row: certification, recall in context and via tools, tokens removed, cache, overhead, throughput, compression, scaling", () => {
    const glance = atAGlance(sampleResult());
    expect(glance.engines).toEqual(["compressor", "lcm", "truncate"]);
    expect(glance.columns.map((column) => column.id)).toEqual([
      "certification",
      "implements",
      "recall-active",
      "recall-tools",
      "tokens-removed",
      "cache-hit",
      "prefix-breaks",
      "overhead",
      "throughput",
      "compression",
      "scaling",
    ]);
    const lcm = Object.fromEntries(glance.columns.map((column, index) => [column.id, glanceRow(glance, "lcm")[index]]));
    expect(lcm["implements"]).toBe("compress() + select_context, on_turn_complete, tools: lcm_grep, lcm_expand, focus_topic");
    expect(glanceRow(glance, "compressor")[1]).toBe("compress() + focus_topic");
    expect(glanceRow(glance, "truncate")[1]).toBe("compress() + focus_topic undecided");
    expect(lcm["certification"]).toBe("NOT certified: 6/9 pass, 2 unexpected");
    expect(lcm["recall-tools"]).toBe("100.0 % (lcm_grep)");
    expect(lcm["compression"]).toMatch(/^\d[\d,.]*×$/);
    expect(lcm["overhead"]).toMatch(/^1\.\d+× \(1\.\d+–1\.\d+\)$/);
    expect(lcm["throughput"]).toMatch(/ (ms|s) \(/);
    expect(lcm["scaling"]).toMatch(/^1\.1\d \(1\.\d+–1\.\d+\)$/);
    expect(glance.notes.every((note) => !note.includes("(noisy)"))).toBe(true);
  });

  it("links every column to the table with its detail", () => {
    const details = new Set(atAGlance(sampleResult()).columns.map((column) => column.detail));
    expect(details).toEqual(new Set(["compliance", "table-profile", "table-overhead", "table-cache", "table-throughput", "table-quality"]));
  });

  it("leaves host and store figures out of the engine rows: the rows are the same without them", () => {
    const result = sampleResult();
    const text = JSON.stringify(atAGlance(result).columns.map((column) => [column.header, [...column.cells.values()]]));
    expect(text).not.toMatch(/append|restore|store|host/i);
    const withoutHarness = sampleResult();
    withoutHarness.benchmarks = withoutHarness.benchmarks.filter((suite) => suite.suite !== "store");
    suiteOf(withoutHarness, "throughput").hostShare = [];
    const rows = (r: ResultJson) => atAGlance(r).engines.map((engine) => glanceRow(atAGlance(r), engine));
    expect(rows(withoutHarness)).toEqual(rows(result));
  });

  it("shows an unreliable figure flagged, with its reason under the table", () => {
    const result = sampleResult();
    const variant = suiteOf(result, "overhead").variants.find((v) => v.variant === "engine:compressor")!;
    variant.unreliable = "says the variant is faster than its baseline (0.63×, interval 0.61–0.65) although it does the baseline's work and more";
    const glance = atAGlance(result);
    const overhead = glance.columns.findIndex((column) => column.id === "overhead");
    expect(glanceRow(glance, "compressor")[overhead]).toMatch(/\(noisy\)$/);
    expect(glanceRow(glance, "lcm")[overhead]).not.toMatch(/noisy/);
    expect(glance.notes.filter((note) => note.includes("(noisy)"))).toEqual([expect.stringMatching(/^\(noisy\) compressor \(Assembly ÷ no engine \(500 msgs\)\): says the variant is faster .* rerun on a quiet machine; not counted as a goal met\.$/)]);
  });

  it("quotes the time added in ns instead of a ratio when the baseline costs a few ns", () => {
    const result = sampleResult();
    for (const variant of suiteOf(result, "overhead").variants) variant.medianNs = { value: 4, low: 3.9, high: 4.1 };
    const glance = atAGlance(result);
    const overhead = glance.columns.findIndex((column) => column.id === "overhead");
    expect(glanceRow(glance, "lcm")[overhead]).toMatch(/^\+[\d.]+ ns \(/);
  });

  it("names why recall via tools was not measured, and marks a column with no figure for an engine", () => {
    const result = sampleResult();
    const quality = suiteOf(result, "quality");
    Object.assign(quality.engines[0]!, { recallViaTools: null, searchTool: null, recallViaToolsNotMeasured: "its tools take no string query" });
    quality.engines.pop();
    const glance = atAGlance(result);
    const tools = glance.columns.findIndex((column) => column.id === "recall-tools");
    expect(glanceRow(glance, "compressor")[tools]).toBe("not measured: its tools take no string query");
    expect(glanceRow(glance, "truncate")[tools]).toBe("–");
  });
});

describe("how the figures were measured", () => {
  it("is said under the table when there are timed figures, naming the machine", () => {
    expect(atAGlance(sampleResult()).notes).toContainEqual(expect.stringMatching(/^Timed figures: engines measured interleaved .* in one process on Example CPU @ 2\.20GHz \(2 cores\), linux 6\.1\.0 x64, Node v20\.20\.2;/));
    expect(atAGlance(sampleResult({ withBenchmarks: false })).notes.some((note) => note.startsWith("Timed figures"))).toBe(false);
  });
});
