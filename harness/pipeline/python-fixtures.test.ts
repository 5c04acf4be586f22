import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { certifyEngine } from "./certify.ts";
import { CHECKS } from "../conformance/checks/index.ts";
import { CAUGHT } from "../conformance/test-support.ts";

/**
 * The Python fixture set, certified the way `ctxbench certify --plugins DIR --engine keeper
 * --config FILE` does it: planned in this process, played in player processes through the
 * player's Python loader (the Hermes bridge). The flaw comes from the run's config.yaml, which is
 * what the engine's `load_config()` returns, as upstream's does.
 */

const PYTHON_FIXTURES = fileURLToPath(new URL("../conformance/fixtures/python/", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "ctxbench-python-fixtures-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * A certification of keeper with the flaw of that name (fixtures/python/keeper/flaws.py), or none;
 * `scenarios` limits the catalogue scenarios played (default: every one its checks read).
 */
async function certifyKeeper(flaw: string | null, checks: string[], scenarios?: readonly string[]) {
  const cwd = mkdtempSync(join(work, `${flaw ?? "correct"}-`));
  const configPath = join(cwd, "config.yaml");
  writeFileSync(configPath, `context:\n  engine: keeper\n${flaw ? `keeper:\n  flaw: ${flaw}\n` : ""}`);
  const outcome = await certifyEngine({ cwd, pluginDirs: [PYTHON_FIXTURES], configPath, checks, env: process.env, ...(scenarios ? { scenarios } : {}) });
  return outcome.assembled.results;
}

/** Each flaw and the check of the rule it breaks (the Python fixture set: every rule family). */
const FLAWS: Array<[flaw: string, check: string]> = [
  ["split-batch", "CMP-2/orphaned-result"],
  ["mutates-conversation", "SEL-6/inputs-unmutated"],
  ["needs-usage", "OTC-5/null-usage"],
  ["requires-uid", "UID-2/missing-uid"],
  ["pairs-by-provider-id", "TCU-3/repeated-tool-call-ids"],
  ["returns-dict", "TOOL-2/json-results"],
  ["reset-keeps-count", "LIFE-2/lifecycle"],
  ["thread-local-session", "THR-1/no-context-affinity"],
  ["shared-scratch", "THR-2/session-isolation"],
  ["misnamed", "REG-5/name-matches-selection"],
  ["clone-is-self", "REG-6/clone-independent"],
  ["integer-answers", "ABC-6/should-compress-boolean"],
  ["duck-typed", "ABC-1/base-class-and-members"],
];

/** A certification plays every scenario and probe of its checks in players: minutes on a loaded machine. */
const CERTIFY_TEST_MS = 400_000;

describe("Python fixtures through the player's Python loader (the Hermes bridge)", () => {
  it(
    "the correct engine (keeper) passes every check it is judged by",
    async () => {
      const results = await certifyKeeper(null, []);
      const problems = results.filter((r) => r.outcome !== "pass" && r.outcome !== "skipped").map((r) => `${r.id}: ${r.outcome}: ${r.message}`);
      expect(problems).toEqual([]);
      expect(results.filter((r) => r.outcome === "skipped").map((r) => r.rule)).toEqual(["SEL-6", "SEL-7", "SEL-8", "SEL-9", "CACHE-2"]);
    },
    CERTIFY_TEST_MS,
  );

  it("covers every engine-binding rule family", () => {
    const families = new Set(FLAWS.map(([, check]) => check.split("-")[0]));
    expect([...families].sort()).toEqual(["ABC", "CMP", "LIFE", "OTC", "REG", "SEL", "TCU", "THR", "TOOL", "UID"]);
  });

  it.each(FLAWS)(
    "the %s flaw is caught by %s",
    async (flaw, id) => {
      // The one check the flaw breaks, with its probes and one of its scenarios (the correct
      // engine's case above plays them all): enough to show the flaw is caught where the host calls it too.
      const check = CHECKS.find((candidate) => candidate.id === id)!;
      const scenario = check.scenarios.includes("parallel-tool-calls") ? "parallel-tool-calls" : check.scenarios[0];
      const results = await certifyKeeper(flaw, [id], scenario === undefined ? [] : [scenario]);
      const own = results.find((result) => result.id === id)!;
      expect(CAUGHT.has(own.outcome), `${own.outcome}: ${own.message}`).toBe(true);
      expect(own.evidence.length).toBeGreaterThan(0);
    },
    CERTIFY_TEST_MS,
  );
});
