import { basename } from "node:path";
import { beforeAll, describe, it, type TestContext } from "vitest";
import { certifyEngine } from "../pipeline/certify.ts";
import { DEFAULT_MAX_TIME_MS, DEFAULT_LOAD_TIMEOUT_MS } from "../pipeline/bounds.ts";
import type { Certification, CheckResult } from "../result/index.ts";
import { failureReport } from "./failure-report.ts";
import { planConformance, type ConformanceOptions, type ConformancePlan } from "./conformance-plan.ts";

/** One seed's certification, as the tests of its group read it. */
interface SeedRun {
  certification: Certification;
  checks: Map<string, CheckResult>;
  notices: string[];
}

/**
 * Every conformance check as a vitest test, judged exactly as `ctxbench certify --plugins <parent>
 * --engine <name>` judges it: the same pipeline (plan, players, assemble), so the engine runs in a
 * player process, never in the test's, and every outcome is certify's. A test fails on an
 * unexpected outcome of a MUST check with the check's message, evidence and replay command; an
 * integrity finding (the engine tampered with the harness) fails the group's integrity test.
 */
export function describeConformance(plugin: string | URL, options: ConformanceOptions = {}): void {
  const plan = planConformance(plugin, options);
  describe(`ctxbench conformance: ${plan.selectedName}`, () => {
    for (const seed of plan.seeds) {
      describe(`seed ${seed}`, () => {
        let run: SeedRun | null = null;
        beforeAll(async () => {
          const outcome = await certifyEngine(plan.request(seed));
          const certification = outcome.result.certifications[0]!;
          run = { certification, checks: new Map(certification.checks.map((check) => [check.id, check])), notices: outcome.notices };
        }, hookTimeoutMs());
        for (const check of plan.checks) {
          it(`${check.id} [${check.level}] ${check.title}`, (context) => judge(context, run, check.id, plan));
        }
        it("integrity: the engine left the harness, its channel and files outside its sandbox alone", (context) => {
          if (run === null) throw new Error("the certification did not finish (see the error of the hook above)");
          for (const notice of run.notices) void context.annotate(notice, "notice");
          const findings = run.certification.integrity ?? [];
          if (findings.length > 0) throw new ConformanceFailure(`not certified: ${findings.map((finding) => `${finding.kind}: ${finding.message}`).join("\n")}`);
        });
      });
    }
  });
}

function judge(context: TestContext, run: SeedRun | null, id: string, plan: ConformancePlan): void {
  if (run === null) throw new Error("the certification did not finish (see the error of the hook above)");
  const result = run.checks.get(id);
  if (result === undefined) throw new Error(`${id} is missing from the certification`);
  if (!result.unexpected || result.outcome === "pass") {
    if (result.outcome === "skipped") context.skip(result.skipReason ?? result.message);
    if (result.expected !== null && result.outcome !== "pass") void context.annotate(`expected ${result.expected}: ${result.message}`, "notice");
    if (result.unexpected) void context.annotate(`passes, but ${basename(plan.pluginDirectory)}'s expectations list ${result.expected}: remove the entry`, "notice");
    return;
  }
  const report = failureReport(result);
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

/** The certification's own bounds (loading, the whole run) and a margin: the hook never cuts it short. */
function hookTimeoutMs(): number {
  return DEFAULT_LOAD_TIMEOUT_MS + DEFAULT_MAX_TIME_MS + 10_000;
}
