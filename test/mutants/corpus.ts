import type { ContextEngine } from "ctxbench";
import type { Check, EvaluatedCheck, CheckRun } from "../../harness/conformance/types.ts";
import { runChecks } from "../../harness/conformance/runner.ts";
import { HOST_SCENARIOS } from "../../harness/conformance/test-support.ts";

export interface Certified {
  results: EvaluatedCheck[];
  /** The recorded runs the checks read, for the oracle's own reading. */
  runs: CheckRun[];
}

/**
 * One engine certified in this process, as `ctxbench certify` judges it (same checks, same probes,
 * same evaluation), without a player per engine: the corpus stays a few seconds per mutant.
 * `scenarios` adds the catalogue scenarios the checks read (slower: the host plays whole sessions).
 */
export async function certifyInProcess(create: () => ContextEngine, checks: readonly Check[], options: { seed: number; scenarios?: boolean }): Promise<Certified> {
  const runs: CheckRun[] = [];
  const results = await runChecks({ name: "tidy", version: "1.0.0", selectedName: "tidy", manifestName: "tidy", createFresh: async () => create() }, checks, {
    seed: options.seed,
    ...(options.scenarios ? { scenarios: HOST_SCENARIOS } : {}),
    onRun: (run) => runs.push(run),
  });
  return { results, runs };
}
