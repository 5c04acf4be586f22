/**
 * What someone choosing an engine reads: a real comparison of the three bundled engines and a
 * plugin whose search tool has a name the quality suite has never heard of (archivist_dig).
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parseResult, type ResultJson } from "../../harness/result/index.ts";
import { ctxbench, type CliOutcome } from "./support.ts";

const ENGINES = ["compressor", "lcm", "truncate", "archivist"];
let run: CliOutcome;
let out: string;
let result: ResultJson;
const report = (file: string) => readFileSync(join(out, file), "utf8");
/** The text of a format from its at-a-glance heading to the next section. */
const glanceOf = (text: string, start: string, end: string) => text.slice(text.indexOf(start), text.indexOf(end, text.indexOf(start)));

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), "ctxbench-compare-report-"));
  const args = ["compare", "--plugins", "test/fixtures/plugins/recall", ...ENGINES.flatMap((engine) => ["--engine", engine]), "--no-certify", "--suite", "profile", "--suite", "quality", "--suite", "throughput", "--quick", "--quiet", "--out", out];
  run = await ctxbench(args, { timeoutMs: 300_000 });
  result = parseResult(report("result.json"));
}, 320_000);

describe("a comparison of the bundled engines and a plugin with its own search tool", () => {
  it("measures the plugin's recall through its tool, naming the tool", () => {
    expect(run.code, run.stderr).toBe(0);
    const quality = result.benchmarks.find((suite) => suite.suite === "quality");
    if (quality?.suite !== "quality") throw new Error("no quality suite in the result");
    const archivist = quality.engines.find((engine) => engine.engine === "archivist")!;
    expect(archivist.searchTool).toMatchObject({ name: "archivist_dig", chosenBy: "schema" });
    expect(archivist.recallViaTools).toBe(1);
  });

  it("has an at-a-glance row per engine in the terminal report, compression in ×, the plugin's tool named", () => {
    const glance = glanceOf(report("report.txt"), "At a glance", "\nRun\n");
    for (const engine of ENGINES) expect(glance).toMatch(new RegExp(`^│ ${engine}\\s+│`, "m"));
    expect(glance).toMatch(/│ archivist\s+│[^\n]*│ 100\.0 %\s+│/);
    expect(glance).toContain("(archivist_dig)");
    expect(glance).toMatch(/│ \d[\d,.]*×/);
    // What each engine implements, read off the engines themselves.
    expect(glance).toMatch(/│ lcm\s+│ compress\(\) \+\s+│/);
    expect(glance).toMatch(/│ archivist\s+│ compress\(\) \+\s+│/);
    expect(glance).toMatch(/^│\s+│ tools:\s+│[^\n]*\n│\s+│ archivist_dig\s+│/m);
  });

  it("has them in the Markdown report", () => {
    const glance = glanceOf(report("report.md"), "## At a glance", "| Run |");
    for (const engine of ENGINES) expect(glance).toContain(`| **${engine}** |`);
    expect(glance).toMatch(/\| \*\*archivist\*\* \|[^\n]*\| 100\.0 % \(archivist\\_dig\) \|/);
    expect(glance).toMatch(/\| \d[\d,.]*× \|/);
    expect(glance).toMatch(/\| \*\*lcm\*\* \| compress\(\) \+ select\\_context, on\\_turn\\_complete, tools: lcm\\_grep, lcm\\_describe, lcm\\_expand, focus\\_topic \|/);
  });

  it("has them in the HTML report, every cell a link to its table", () => {
    const html = report("report.html");
    const glance = glanceOf(html, '<section id="at-a-glance">', "</section>");
    expect([...glance.matchAll(/<th scope="row">([^<]+)<\/th>/g)].map((match) => match[1])).toEqual(ENGINES);
    expect(glance).toContain(">100.0 % (archivist_dig)</a>");
    expect(glance).toMatch(/<a href="#table-throughput">\d[\d,.]*×<\/a>/);
    const ids = new Set([...html.matchAll(/\bid="([^"]+)"/g)].map((match) => match[1]));
    expect([...glance.matchAll(/href="#([^"]+)"/g)].map((match) => match[1]).filter((target) => !ids.has(target))).toEqual([]);
  });
});
