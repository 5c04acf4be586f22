/**
 * JUnit XML: one testsuite per engine, one testcase per check; benchmark goals as a testsuite per
 * suite. JUnit has no "expected failure", so an expected outcome is written as <skipped> with its reason.
 * A SHOULD check is a warning whatever it does (it never decides a verdict): its case passes, with
 * the warning and its evidence on <system-out>, so a certified engine never turns a JUnit-reading CI red.
 * The output follows the Jenkins JUnit schema (junit-4.xsd), which most CI servers read: the
 * reason is <skipped>'s text (the schema gives it no attributes) and the root carries no skipped count.
 */
import type { Reporter } from "./reporter.ts";
import { goalBound, RERUN_ADVICE, type BenchSuiteResult, type Certification, type CheckResult, type ResultJson } from "../harness/result/index.ts";
import { element, xmlText } from "./xml.ts";

type Verdict =
  | { kind: "passed" }
  | { kind: "skipped"; message: string }
  | { kind: "failure" | "error"; type: string; message: string; body: string }
  /** A SHOULD check that did not do as expected: the case passes and says so on system-out (RULES.md: a warning, never a failure). */
  | { kind: "warning"; body: string };

const seconds = (ms: number) => (ms / 1000).toFixed(3);

function evidenceBody(check: CheckResult): string {
  const lines = [check.message, "", "Evidence:", JSON.stringify(check.evidence, null, 2)];
  if (check.repro) lines.push("", `Replay: ${check.repro.command}`, `Scenario: ${check.repro.scenario} (seed ${check.repro.seed})`);
  return lines.join("\n");
}

export function junitVerdict(check: CheckResult): Verdict {
  if (check.outcome === "skipped") return { kind: "skipped", message: check.skipReason ?? check.message };
  if (check.unexpected && check.level === "SHOULD") {
    const what = check.outcome === "pass" ? `passed, but the expectations file says ${check.expected}` : `${check.outcome} (unexpected)`;
    return { kind: "warning", body: `warning: SHOULD ${check.id} ${what}: ${evidenceBody(check)}` };
  }
  if (!check.unexpected) {
    return check.outcome === "pass" ? { kind: "passed" } : { kind: "skipped", message: `expected: ${check.message} (${check.outcome}, as the expectations file says)` };
  }
  if (check.outcome === "pass")
    return { kind: "failure", type: "unexpected-pass", message: `passed, but the expectations file says ${check.expected}; update it`, body: evidenceBody(check) };
  const kind = check.outcome === "error" || check.outcome === "timeout" ? "error" : "failure";
  return { kind, type: check.outcome, message: check.message, body: evidenceBody(check) };
}

interface Case {
  classname: string;
  name: string;
  timeMs: number;
  verdict: Verdict;
}

function testcase(test: Case): string {
  const { verdict } = test;
  const child =
    verdict.kind === "passed"
      ? null
      : verdict.kind === "skipped"
        ? element("skipped", {}, xmlText(verdict.message))
        : verdict.kind === "warning"
          ? element("system-out", {}, xmlText(verdict.body))
          : element(verdict.kind, { message: verdict.message, type: verdict.type }, xmlText(verdict.body));
  return `    ${element("testcase", { classname: test.classname, name: test.name, time: seconds(test.timeMs) }, child)}`;
}

interface Counts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  timeMs: number;
}

function countsOf(cases: Case[]): Counts {
  return {
    tests: cases.length,
    failures: cases.filter((test) => test.verdict.kind === "failure").length,
    errors: cases.filter((test) => test.verdict.kind === "error").length,
    skipped: cases.filter((test) => test.verdict.kind === "skipped").length,
    timeMs: cases.reduce((sum, test) => sum + test.timeMs, 0),
  };
}

function suite(name: string, cases: Case[], properties: [string, string][]): { xml: string; counts: Counts } {
  const counts = countsOf(cases);
  const props = properties.map(([key, value]) => `      ${element("property", { name: key, value })}`);
  const body = ["", "    <properties>", ...props, "    </properties>", ...cases.map(testcase), "  "].join("\n");
  const attributes = { name, tests: counts.tests, failures: counts.failures, errors: counts.errors, skipped: counts.skipped, time: seconds(counts.timeMs) };
  return { xml: `  ${element("testsuite", attributes, body)}`, counts };
}

function certificationCases(certification: Certification): Case[] {
  return certification.checks.map((check) => ({
    classname: certification.engine.name,
    name: `${check.id} ${check.title}`,
    timeMs: check.durationMs,
    verdict: junitVerdict(check),
  }));
}

function goalCases(bench: BenchSuiteResult): Case[] {
  const perGoal = bench.goals.length > 0 ? bench.durationMs / bench.goals.length : 0;
  return bench.goals.map((goal) => ({
    classname: `bench.${bench.suite}`,
    name: `${goal.id} ${goal.description}`,
    timeMs: perGoal,
    verdict:
      goal.status === "met"
        ? { kind: "passed" }
        : goal.status === "noisy"
          ? { kind: "skipped", message: `${RERUN_ADVICE}: ${goal.reason ?? "the measurement is not conclusive"}` }
          : { kind: "failure", type: "goal-missed", message: `${goal.measured} ${goal.unit} ${goal.floor === true ? "<" : ">"} ${goal.limit} ${goal.unit}`, body: `${goal.description}: measured ${goal.measured} ${goal.unit}, goal ${goalBound(goal)} ${goal.limit} ${goal.unit}` },
  }));
}

export const junitReporter: Reporter = {
  format: "junit",
  fileName: "junit.xml",
  printable: true,
  render(result: ResultJson) {
    const info = result.runInfo;
    const properties: [string, string][] = [
      ["tool", `${info.tool.name} ${info.tool.version}`],
      ["node", info.node],
      ["os", info.os],
      ["cpu", info.cpu],
      ["cores", String(info.cores)],
      ["gitSha", info.gitSha ?? ""],
      ["seed", String(info.seed)],
      ["command", info.command],
    ];
    const suites = [
      ...result.certifications.map((certification) =>
        suite(`certify ${certification.engine.name} ${certification.engine.version}`, certificationCases(certification), [
          ...properties,
          ["verdict", certification.verdict],
        ]),
      ),
      ...result.benchmarks.filter((bench) => bench.goals.length > 0).map((bench) => suite(`bench ${bench.suite}`, goalCases(bench), properties)),
    ];
    const total = countsOf([]);
    for (const { counts } of suites) {
      total.tests += counts.tests;
      total.failures += counts.failures;
      total.errors += counts.errors;
      total.skipped += counts.skipped;
      total.timeMs += counts.timeMs;
    }
    const root = element(
      "testsuites",
      { name: "ctxbench", tests: total.tests, failures: total.failures, errors: total.errors, time: seconds(total.timeMs) },
      ["", ...suites.map((entry) => entry.xml), ""].join("\n"),
    );
    return `<?xml version="1.0" encoding="UTF-8"?>\n${root}\n`;
  },
};
