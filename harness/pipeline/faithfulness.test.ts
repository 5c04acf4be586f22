import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { executeCertification } from "./certify.ts";
import { planCertification, type CertificationPlan } from "./plan.ts";

/**
 * The engine protocol is faithful on the path certify takes: a TypeScript engine certified through
 * the pipeline and players, once in the player and once behind the engine protocol (the Node
 * adapter in a process of its own, a RemoteEngine in the player), gets the same verdict and the
 * same outcome and message for every check. (harness/conformance/faithfulness/ shows it for the
 * in-process runner and every fixture of the check set.) The messages, with their counts of
 * passes and outputs, are equal because no catalogue scenario leaves a pass to the host's
 * real-time timeout (harness/host/catalogue-speed.test.ts): a call across the protocol is slower.
 */

const FAULTY = fileURLToPath(new URL("../../test/fixtures/plugins/faulty/", import.meta.url));
const cwd = mkdtempSync(join(tmpdir(), "ctxbench-faithful-"));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

const overProtocol = (plan: CertificationPlan): CertificationPlan => ({
  ...plan,
  selection: { ...plan.selection, spec: { ...plan.selection.spec, runtime: { ...plan.selection.spec.runtime, typescriptOverProtocol: true } } },
});

async function outcomes(plan: CertificationPlan) {
  const outcome = await executeCertification(plan, { env: process.env });
  return {
    verdict: outcome.assembled.certification.verdict,
    checks: outcome.assembled.results.map((result) => `${result.id}: ${result.outcome}: ${result.message}`),
    remote: outcome.notices.some((notice) => notice.includes("behind the engine protocol")),
  };
}

/** Two certifications of every check, in players, one through a second process: minutes on a loaded machine. */
const COMPARISON_TEST_MS = 600_000;

describe("the protocol is faithful on the player path: certified in the player and through the Node adapter", () => {
  // The default engine (compaction, scenarios), the one with tools and a store, and a plugin whose
  // flaw CMP catches (its own family, with the probes and one scenario, is enough to show the
  // failure arrives the same way).
  it.each([
    ["compressor", [], [], undefined],
    ["lcm", [], [], undefined],
    ["object-summary", [FAULTY], ["CMP"], ["parallel-tool-calls"]],
  ] as const)("%s: the same verdict and the same outcome for every check", async (engine, pluginDirs, checks, scenarios) => {
    const plan = await planCertification({ cwd, engine, pluginDirs, checks, ...(scenarios ? { scenarios } : {}) });
    const inPlayer = await outcomes(plan);
    const remote = await outcomes(overProtocol(plan));
    expect([inPlayer.remote, remote.remote]).toEqual([false, true]);
    expect({ ...remote, remote: false }).toEqual(inPlayer);
    expect(inPlayer.checks.length).toBeGreaterThan(0);
    if (engine === "object-summary") expect(inPlayer.verdict).toBe("not-certified");
  }, COMPARISON_TEST_MS);
});
