import { basename } from "node:path";
import { beforeAll, describe, it, type TestContext } from "vitest";
import type { ContextEngine } from "../contract/context-engine.ts";
import { isContextEngine } from "../contract/context-engine.ts";
import { isUnexpected } from "../conformance/verdict.ts";
import { DEFAULT_RUN_TIMEOUT_MS, runChecks, type EngineUnderTest } from "../conformance/runner.ts";
import type { EvaluatedCheck } from "../conformance/types.ts";
import { readManifest } from "../plugins/manifest.ts";
import { failureReport } from "./failure-report.ts";
import { planConformance, type ConformanceOptions, type ConformancePlan } from "./conformance-plan.ts";

export type EngineFactory = () => ContextEngine | Promise<ContextEngine>;

/**
 * Every conformance check as a vitest test, the way `ctxbench certify` judges them: the engine is
 * played through the reference host (probes, and with `scenarios` the catalogue scenarios), each
 * check evaluates what was recorded, and a test fails on an unexpected outcome of a MUST check
 * with the check's message and evidence. The factory is called for every fresh instance a probe
 * or scenario needs; it runs in the test's own process.
 */
export function describeConformance(engineFactory: EngineFactory, options: ConformanceOptions = {}): void {
  const plan = planConformance(options);
  const label = plan.selectedName ?? (plan.pluginDirectory === null ? "engine" : basename(plan.pluginDirectory));
  describe(`ctxbench conformance: ${label}`, () => {
    for (const seed of plan.seeds) {
      describe(`seed ${seed}`, () => {
        let results = new Map<string, EvaluatedCheck>();
        let selection = label;
        beforeAll(async () => {
          const engine = await engineUnderTest(engineFactory, plan);
          selection = engine.selectedName;
          const run = await runChecks(engine, plan.checks, {
            seed,
            timeoutMs: plan.timeoutMs ?? DEFAULT_RUN_TIMEOUT_MS,
            scenarios: plan.withScenarios,
          });
          results = new Map(run.map((result) => [result.id, result]));
        }, hookTimeoutMs(plan));
        for (const check of plan.checks) {
          it(`${check.id} [${check.level}] ${check.title}`, (context) => judge(context, results.get(check.id), plan, selection, seed));
        }
      });
    }
  });
}

async function engineUnderTest(factory: EngineFactory, plan: ConformancePlan): Promise<EngineUnderTest> {
  const fresh = async (): Promise<ContextEngine> => {
    const engine: unknown = await factory();
    if (!isContextEngine(engine)) throw new Error("describeConformance: the engine factory did not return a ContextEngine");
    return engine;
  };
  const first = await fresh();
  const manifestName = plan.pluginDirectory === null ? null : (await readManifest(plan.pluginDirectory)).name;
  const selectedName = plan.selectedName ?? (plan.pluginDirectory === null ? String(first.name) : basename(plan.pluginDirectory));
  return { name: String(first.name), version: null, selectedName, manifestName, createFresh: fresh };
}

function judge(context: TestContext, result: EvaluatedCheck | undefined, plan: ConformancePlan, selection: string, seed: number): void {
  if (result === undefined) throw new Error("the conformance run did not finish (see the error of the hook above)");
  const expected = plan.expectations.get(result.id);
  if (!isUnexpected(result.outcome, expected?.expected ?? null)) {
    if (result.outcome === "skipped") context.skip(result.skipReason ?? result.message);
    if (expected !== undefined && result.outcome !== "pass") void context.annotate(`expected ${expected.expected}: ${expected.reason}`, "notice");
    return;
  }
  const report = failureReport(result, selection, plan.pluginDirectory, seed, expected?.expected ?? null);
  if (result.level === "SHOULD" && plan.should === "warn") {
    void context.annotate(report, "warning");
    return;
  }
  throw new ConformanceFailure(report);
}

/** A failed check; its message is the check's message, evidence and replay command. */
export class ConformanceFailure extends Error {
  override name = "ConformanceFailure";
  constructor(report: string) {
    super(report);
    // The report is the whole story; frames inside the helper would only point away from the engine.
    this.stack = `${this.name}: ${report}`;
  }
}

function hookTimeoutMs(plan: ConformancePlan): number {
  const perSource = plan.timeoutMs ?? DEFAULT_RUN_TIMEOUT_MS;
  const sources = new Set(plan.checks.flatMap((check) => [...check.probes.map((p) => `p:${p}`), ...(plan.withScenarios ? check.scenarios.map((s) => `s:${s}`) : [])]));
  return perSource * Math.max(1, sources.size) + 10_000;
}
