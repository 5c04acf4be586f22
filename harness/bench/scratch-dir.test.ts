import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { TruncateEngine } from "../../engines/truncate/index.ts";
import { benchSuites } from "./registry.ts";

const savedTmp = process.env["TMPDIR"];
afterEach(() => {
  if (savedTmp === undefined) delete process.env["TMPDIR"];
  else process.env["TMPDIR"] = savedTmp;
});

/**
 * A bench player gives its suite a scratch directory inside the sandbox the parent removes, so
 * nothing is left when a bound kills the player mid-suite. A suite that made its files in the
 * system's temporary directory instead left them there (the fault tests' killed benches did).
 * Here that directory does not exist: a suite reaching for it fails.
 */
describe("every bench suite keeps its temporary files in the scratch directory it is given", () => {
  it.each(benchSuites().map((suite) => [suite.name, suite] as const))("%s", async (_name, suite) => {
    const scratchDir = mkdtempSync(join(tmpdir(), "ctxbench-scratch-"));
    process.env["TMPDIR"] = join(scratchDir, "no-such-directory");
    try {
      const engines = [{ name: "truncate", version: "0", create: () => new TruncateEngine() }];
      await expect(suite.run({ engines, seed: 1, scratchDir, quick: true })).resolves.toBeDefined();
      expect(readdirSync(scratchDir)).not.toContain("no-such-directory");
    } finally {
      rmSync(scratchDir, { recursive: true, force: true });
    }
  });
});
