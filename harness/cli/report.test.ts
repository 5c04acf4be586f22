import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { sampleResult } from "../result/sample-result.ts";
import { parseResult } from "../result/index.ts";
import { runCli } from "./main.ts";
import { memoryIo } from "./test-io.ts";

let dir = "";
const write = (name: string, content: unknown) => writeFileSync(join(dir, name), typeof content === "string" ? content : JSON.stringify(content));

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "ctxbench-report-cli-"));
  write("certify.json", sampleResult({ withBenchmarks: false }));
  write("bench.json", sampleResult({ withCertifications: false }));
  write("broken.json", "{ not json");
  // What `certify --format json` prints: the result document itself, one engine's certification in it.
  write("certify-truncate.json", sampleResult({ engines: ["truncate"], withBenchmarks: false }));
  const invalid = sampleResult();
  (invalid.certifications[1]!.checks[3] as { outcome: string }).outcome = "passed";
  write("invalid.json", invalid);
});

describe("ctxbench report", () => {
  it("merges a certification and a benchmark result and prints the terminal report", async () => {
    const io = memoryIo(dir);
    expect(await runCli(["report", "certify.json", "bench.json"], io)).toBe(0);
    expect(io.out()).toContain("lcm 0.4.2: NOT-CERTIFIED");
    expect(io.out()).toContain("Compression throughput");
    expect(io.out()).not.toContain("\u001b");
  });

  it("reads the one-engine JSON that certify --format json prints, beside full results", async () => {
    const io = memoryIo(dir);
    expect(await runCli(["report", "certify-truncate.json", "bench.json", "--format", "markdown"], io)).toBe(0);
    expect(io.out()).toContain("- **truncate**: certified");
    expect(io.out()).toContain("### Compression throughput");
  });

  it("colours only on a terminal without NO_COLOR", async () => {
    const tty = memoryIo(dir, { isTty: true });
    await runCli(["report", "certify.json"], tty);
    expect(tty.out()).toContain("\u001b[");
    const noColor = memoryIo(dir, { isTty: true, env: { NO_COLOR: "1" } });
    await runCli(["report", "certify.json"], noColor);
    expect(noColor.out()).not.toContain("\u001b");
  });

  it("prints the merged result as json and writes a format to --out", async () => {
    const io = memoryIo(dir);
    expect(await runCli(["report", "certify.json", "bench.json", "--format", "json"], io)).toBe(0);
    const merged = parseResult(io.out());
    expect(merged.certifications).toHaveLength(3);
    expect(merged.benchmarks).toHaveLength(6);
    const outIo = memoryIo(dir);
    expect(await runCli(["report", "certify.json", "--format", "junit", "--out", "out/junit.xml"], outIo)).toBe(0);
    expect(outIo.out()).toBe("wrote out/junit.xml (junit)\n");
    expect(readFileSync(join(dir, "out/junit.xml"), "utf8")).toMatch(/^<\?xml/);
  });

  it("exits 2 naming the file and the JSON path for an invalid result", async () => {
    const io = memoryIo(dir);
    expect(await runCli(["report", "certify.json", "invalid.json"], io)).toBe(2);
    expect(io.err()).toBe('ctxbench: invalid.json: $.certifications[1].checks[3].outcome: expected one of "pass", "fail", "error", "timeout", "skipped", "indeterminate", got the string "passed"\n');
  });

  it("exits 2 for text that is not JSON, a missing file, results that cannot merge, or an unknown format", async () => {
    const cases: [string[], RegExp][] = [
      [["report", "broken.json"], /^ctxbench: broken\.json: \$: not JSON/],
      [["report", "missing.json"], /^ctxbench: cannot read missing\.json: ENOENT/],
      [["report", "certify.json", "certify.json"], /^ctxbench: cannot merge .*appears in two results/],
      [["report", "certify.json", "--format", "pdf"], /Invalid values/],
    ];
    for (const [argv, message] of cases) {
      const io = memoryIo(dir);
      expect(await runCli(argv, io)).toBe(2);
      expect(io.err()).toMatch(message);
    }
  });
});
