import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseResult } from "../../harness/result/index.ts";
import { ctxbench } from "./support.ts";

describe("ctxbench bench (as a process)", () => {
  it("prints a valid result JSON and exits 1 when a figure regressed against the named baseline", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "ctxbench-bench-e2e-"));
    mkdirSync(join(cwd, ".ctxbench", "baselines"), { recursive: true });
    // A baseline no real run can meet: the inheriting engine's assembly at a thousandth of no engine's.
    const impossible = { value: 0.001, relativeUncertainty: 0, higherIsBetter: false };
    writeFileSync(
      join(cwd, ".ctxbench", "baselines", "impossible.json"),
      JSON.stringify({ schemaVersion: 1, machine: "test", figures: { "overhead/assembly/inheriting": impossible } }),
    );
    const out = await ctxbench(["bench", "--suite", "overhead", "--engine", "truncate", "--quick", "--json", "--baseline", "impossible"], { cwd });
    expect(out.code, out.stderr).toBe(1);
    expect(out.stderr).toMatch(/1 regression\(s\) against baseline "impossible"/);
    expect(out.stderr).toMatch(/overhead\/assembly\/inheriting/);
    const result = parseResult(out.stdout);
    const suite = result.benchmarks[0]!;
    expect(suite.suite).toBe("overhead");
    if (suite.suite !== "overhead") return;
    expect(suite.requestsByteIdentical).toBe(true);
    expect(new Set(suite.variants.map((v) => v.variant))).toEqual(new Set(["no-engine", "inheriting", "select-null", "engine:truncate"]));
    expect(result.runInfo.engines).toEqual([{ name: "truncate", version: expect.any(String) }]);
  }, 240_000);

  it("refuses an unknown suite, an unknown engine and a missing baseline with exit 2", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "ctxbench-bench-e2e-"));
    const suite = await ctxbench(["bench", "--suite", "speed"], { cwd });
    expect(suite.code).toBe(2);
    expect(suite.stderr).toMatch(/Invalid values[\s\S]*suite/);
    const engine = await ctxbench(["bench", "--suite", "store", "--engine", "no-such-engine"], { cwd });
    expect(engine.code).toBe(2);
    expect(engine.stderr).toMatch(/no-such-engine/);
    const baseline = await ctxbench(["bench", "--suite", "store", "--engine", "truncate", "--baseline", "absent"], { cwd });
    expect(baseline.code).toBe(2);
    expect(baseline.stderr).toMatch(/no baseline named "absent"/);
  });
});
