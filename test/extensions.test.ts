/**
 * Adding a bench suite or a reporter takes one file and one registry line: the throwaway suite
 * and reporter of test/fixtures/extensions/ are registered (the registry line, at run time) and
 * then show up in every output without another file knowing them. The pipeline's bench stage,
 * its per-player combination (combine.ts), merge, baselines, the result schema and every
 * reporter find them through the registries alone.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { figuresOf } from "../harness/bench/figures.ts";
import { registerBenchSuite } from "../harness/bench/registry.ts";
import { runCli } from "../harness/cli/main.ts";
import { memoryIo } from "../harness/cli/test-io.ts";
import { parseResult, resultJsonSchema, type ResultJson } from "../harness/result/index.ts";
import { sampleResult } from "../harness/result/sample-result.ts";
import { mergeResults, registerReporter, reporters } from "../reports/index.ts";
import { csvReporter } from "./fixtures/extensions/csv-reporter.ts";
import { echoSuite } from "./fixtures/extensions/echo-suite.ts";

const unregister = [registerBenchSuite(echoSuite), registerReporter(csvReporter)];
afterAll(() => unregister.forEach((undo) => undo()));

const dir = mkdtempSync(join(tmpdir(), "ctxbench-extensions-"));

async function benchEcho(...engines: string[]): Promise<ResultJson> {
  const io = memoryIo(dir);
  // Registered in this process only, so the suite runs here too (--no-isolate): a player process
  // reads the registry file itself, where a real suite's line is.
  const code = await runCli(["bench", "--suite", "echo", ...engines.flatMap((engine) => ["--engine", engine]), "--json", "--quiet", "--no-isolate"], io);
  expect(code, io.err()).toBe(0);
  return parseResult(io.out());
}

describe("a bench suite is one file and one registry line", () => {
  it("runs from `bench --suite`, its result validates against the result schema, which publishes its shape", async () => {
    const result = await benchEcho("truncate");
    const [echo] = result.benchmarks as unknown as { suite: string; engines: { engine: string; tokensIn: number; tokensOut: number }[] }[];
    expect(echo?.suite).toBe("echo");
    expect(echo?.engines[0]).toMatchObject({ engine: "truncate", tokensIn: expect.any(Number) });
    expect(echo!.engines[0]!.tokensOut).toBeLessThan(echo!.engines[0]!.tokensIn);
    expect(Object.keys(resultJsonSchema().$defs as object)).toContain("EchoSuite");
    const bad = JSON.parse(JSON.stringify(result));
    bad.benchmarks[0].engines[0].tokensOut = -1;
    expect(() => parseResult(JSON.stringify(bad), "bad.json")).toThrow("bad.json: $.benchmarks[0].engines[0].tokensOut: must be >= 0, got -1");
  });

  it("shows its table in every format, its chart in the HTML report, and its figures in a baseline", async () => {
    const result = await benchEcho("truncate");
    const shows: Record<string, RegExp> = {
      terminal: /Echo: tokens left by one pass/,
      markdown: /### Echo: tokens left by one pass/,
      html: /Echo: tokens left by one pass/,
      json: /"suite": "echo"/,
      // JUnit and TAP carry a suite's goals.
      junit: /<testsuite name="bench echo"[^>]*>[\s\S]*classname="bench\.echo" name="no-growth\/truncate/,
      tap: /ok \d+ - bench echo no-growth\/truncate/,
    };
    for (const [format, pattern] of Object.entries(shows)) expect(reporters[format as keyof typeof reporters].render(result), format).toMatch(pattern);
    expect(reporters.html.render(result)).toContain('data-chart="echo"');
    // Its at-a-glance column, linked to its table in HTML.
    expect(reporters.terminal.render(result)).toMatch(/At a glance[\s\S]*Echo[\s\S]*│ truncate\s+│ \d+\.\d %/);
    expect(reporters.markdown.render(result)).toMatch(/## At a glance\n\n\| Engine \| \[Echo kept\]\(#table-echo\) \|/);
    expect(reporters.html.render(result)).toMatch(/<th scope="col"><a href="#table-echo">Echo kept<\/a><\/th>/);
    expect(Object.keys(figuresOf(result.benchmarks[0]!))).toEqual(["echo/truncate/tokens-out"]);
  });

  it("combines its per-engine players' parts into one result (combine.ts knows no suite)", async () => {
    const [echo] = (await benchEcho("truncate", "compressor")).benchmarks as unknown as { engines: { engine: string }[]; goals: { engine: string | null }[] }[];
    expect(echo!.engines.map((e) => e.engine)).toEqual(["truncate", "compressor"]);
    expect(echo!.goals.map((goal) => goal.engine)).toEqual(["truncate", "compressor"]);
  });

  it("joins per engine in merge, as its file says", async () => {
    const merged = mergeResults(await benchEcho("truncate"), await benchEcho("compressor"));
    const [echo] = merged.benchmarks as unknown as { engines: { engine: string }[] }[];
    expect(echo!.engines.map((e) => e.engine)).toEqual(["truncate", "compressor"]);
  });
});

describe("a reporter is one file and one registry line", () => {
  it("is a --format of report and merge, writes its file into --out, and appends to the target its environment names", async () => {
    writeFileSync(join(dir, "certify.json"), JSON.stringify(sampleResult({ withBenchmarks: false })));
    const report = memoryIo(dir);
    expect(await runCli(["report", "certify.json", "--format", "csv"], report)).toBe(0);
    expect(report.out().split("\n")[0]).toBe("engine,check,level,outcome,unexpected");
    expect(report.out()).toContain("lcm,CMP-2/orphaned-result,MUST,fail,true");

    const log = join(dir, "csv.log");
    const merge = memoryIo(dir, { env: { CTXBENCH_CSV_LOG: log } });
    expect(await runCli(["merge", "certify.json", "--format", "csv", "--out", "merged"], merge)).toBe(1); // lcm is not certified
    expect(merge.out()).toBe(readFileSync(join(dir, "merged", "checks.csv"), "utf8"));
    expect(readFileSync(log, "utf8")).toBe(merge.out());
  });
});
