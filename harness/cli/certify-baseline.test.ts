import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "./main.ts";
import { memoryIo } from "./test-io.ts";

const dir = mkdtempSync(join(tmpdir(), "ctxbench-certify-baseline-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const certify = async (...more: string[]) => {
  const io = memoryIo(dir);
  const code = await runCli(["certify", "--engine", "truncate", "--checks", "ABC-2", "--quiet", "--format", "json", ...more], io);
  return { code, err: io.err() };
};
const baselineFile = (name: string) => join(dir, ".ctxbench", "baselines", `${name}.json`);

describe("ctxbench certify --save-baseline / --baseline", () => {
  it("saves the certification's time and gates a later run on it: exit 1 naming the figure that got slower, exit 0 when none did", async () => {
    const saved = await certify("--save-baseline", "ci");
    expect(saved.code, saved.err).toBe(0);
    const file = JSON.parse(readFileSync(baselineFile("ci"), "utf8")) as { figures: Record<string, { value: number; higherIsBetter: boolean }> };
    expect(Object.keys(file.figures).sort()).toEqual(["certify/truncate/harness-ms", "certify/truncate/wall-ms"]);
    for (const figure of Object.values(file.figures)) expect(figure).toMatchObject({ higherIsBetter: false, relativeUncertainty: 0 });
    expect(file.figures["certify/truncate/wall-ms"]!.value).toBeGreaterThan(0);

    // A baseline far faster than any run can be: every figure regressed.
    const fast = { ...file, figures: Object.fromEntries(Object.entries(file.figures).map(([key, figure]) => [key, { ...figure, value: 0.001 }])) };
    writeFileSync(baselineFile("fast"), JSON.stringify(fast));
    const gated = await certify("--baseline", "fast");
    expect(gated.code).toBe(1);
    // The error is one line: its line breaks are written escaped.
    expect(gated.err).toMatch(/2 regression\(s\) against baseline "fast":\\n {2}certify\/truncate\/wall-ms: 0\.001000 → [\d.]+ \([\d.]+ % worse; allowed 10\.0 %\)\\n {2}certify\/truncate\/harness-ms: /);

    // And one far slower: no regression.
    const slow = { ...file, figures: Object.fromEntries(Object.entries(file.figures).map(([key, figure]) => [key, { ...figure, value: 1e9 }])) };
    writeFileSync(baselineFile("slow"), JSON.stringify(slow));
    const passed = await certify("--baseline", "slow");
    expect(passed.code, passed.err).toBe(0);
    expect(passed.err).toContain('no regression against baseline "slow" (2 figures compared)');
  });

  it("a missing baseline is refused before the engine runs (exit 2, one line)", async () => {
    const missing = await certify("--baseline", "never-saved");
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/no baseline named "never-saved" \(save one with --save-baseline never-saved\)/);
  });
});
