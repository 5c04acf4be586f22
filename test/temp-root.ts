import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * vitest's global setup: every temporary file of a test run (the tests' own trees, and those of the
 * CLI processes, players and Python bridges they start, which inherit the environment) goes under
 * one directory, removed when the run ends. A day of runs had left hundreds of trees in /tmp.
 */
export default function setup(): (() => void) | undefined {
  // Each project of the config runs the global setup; the first one's directory serves them all.
  if (process.env.CTXBENCH_TEST_TMP !== undefined) return undefined;
  const root = mkdtempSync(join(tmpdir(), "ctxbench-tests-"));
  for (const name of ["CTXBENCH_TEST_TMP", "TMPDIR", "TMP", "TEMP"]) process.env[name] = root;
  return () => {
    rmSync(root, { recursive: true, force: true, maxRetries: 3 });
    delete process.env.CTXBENCH_TEST_TMP;
  };
}
