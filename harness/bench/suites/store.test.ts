import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runStoreBench } from "./store.ts";
import { runStoreSuite } from "./store.suite.ts";

describe("the store benchmark", () => {
  it("returns plain figures for appends, restores and a legacy upgrade, and cleans up its files", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ctxbench-store-bench-"));
    try {
      const result = await runStoreBench({ dir, rows: 2000, legacyRows: 5000 });
      expect(result.suite).toBe("store");
      expect(result.machine.cores).toBeGreaterThan(0);
      expect(result.append).toMatchObject({ rows: 2000, batchSize: 1000 });
      expect(result.append.appendsPerSecond).toBeGreaterThan(0);
      expect(result.append.withUpstreamTimestampIndexAppendsPerSecond).toBeGreaterThan(0);
      expect(result.append.tenThousandRowSessionsAppendsPerSecond).toBeGreaterThan(0);
      expect(result.restore.restoresPerSecond).toBeGreaterThan(0);
      expect(result.upgrade).toMatchObject({ legacyRows: 5000, chunk: 2000 });
      expect(result.upgrade.opensToConverge).toBeGreaterThanOrEqual(1);
      expect(result.upgrade.slices).toBe(3);
      expect(JSON.parse(JSON.stringify(result))).toEqual(result);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("states the append goal as a floor and the slice goal as a ceiling", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ctxbench-store-suite-"));
    try {
      const suite = await runStoreSuite({ dir, rows: 1000, legacyRows: 2000 });
      const [appends, slice] = suite.goals;
      expect(appends).toMatchObject({ id: "appends", engine: null, floor: true, limit: 150_000 });
      expect(appends?.interval?.low).toBeLessThanOrEqual(appends!.measured);
      expect(slice?.floor).toBeUndefined();
      // A goal is never met by a figure that says otherwise, whatever the machine's noise made of it.
      if ((appends?.interval?.low ?? 0) < 150_000) expect(appends?.status).not.toBe("met");
      if ((slice?.measured ?? Infinity) > 50) expect(slice?.status).not.toBe("met");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
