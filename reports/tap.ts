/**
 * TAP version 14: one test point per engine × check, then one per benchmark goal. An expected
 * non-pass is `not ok … # TODO` (TAP's own "expected failure"); a skip is `ok … # SKIP`; a SHOULD
 * check that did not do as expected is `ok` with `severity: warning` in its diagnostics.
 */
import type { Reporter } from "./reporter.ts";
import { RERUN_ADVICE, type CheckResult, type ResultJson } from "../harness/result/index.ts";

/** A description on one line, with `#` and `\` escaped as TAP 14 requires. */
export function tapDescription(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/#/g, "\\#").replace(/[\u0000-\u001f\u007f]/g, " ");
}

/** A directive reason: one line, no `#` (it would end the reason). */
const directiveText = (text: string) => tapDescription(text).replace(/\\#/g, "no.");

/** YAML diagnostics; every value written as JSON, which YAML 1.2 reads as flow style. */
function diagnostics(entries: [string, unknown][]): string[] {
  const yaml = (value: unknown) => JSON.stringify(value).replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
  return ["  ---", ...entries.map(([key, value]) => `  ${key}: ${yaml(value)}`), "  ..."];
}

function checkPoint(number: number, engine: string, check: CheckResult): string[] {
  const description = `${number} - ${tapDescription(`${engine} ${check.id} ${check.title}`)}`;
  if (check.outcome === "skipped") return [`ok ${description} # SKIP ${directiveText(check.skipReason ?? check.message)}`];
  if (check.outcome === "pass" && !check.unexpected) return [`ok ${description}`];
  // A SHOULD check never fails: an unexpected outcome is an ok point whose diagnostics say warning.
  const warning = check.unexpected && check.level === "SHOULD";
  const todo = !check.unexpected ? ` # TODO expected ${check.outcome}: ${directiveText(check.message)}` : "";
  const entries: [string, unknown][] = [
    ...(warning ? ([["severity", "warning"]] as [string, unknown][]) : []),
    ["outcome", check.outcome],
    ["expected", check.expected ?? "pass"],
    ["level", check.level],
    ["rule", check.rule],
    ["message", check.message],
    ["durationMs", check.durationMs],
    ["evidence", check.evidence],
  ];
  if (check.repro) entries.push(["scenario", check.repro.scenario], ["replay", check.repro.command]);
  return [`${warning ? "ok" : "not ok"} ${description}${todo}`, ...diagnostics(entries)];
}

export const tapReporter: Reporter = {
  format: "tap",
  fileName: "report.tap",
  printable: true,
  render(result: ResultJson) {
    const lines: string[] = [];
    let number = 0;
    for (const certification of result.certifications) {
      lines.push(`# certify ${tapDescription(`${certification.engine.name} ${certification.engine.version}`)}: ${certification.verdict}`);
      for (const check of certification.checks) lines.push(...checkPoint(++number, certification.engine.name, check));
    }
    for (const bench of result.benchmarks) {
      for (const goal of bench.goals) {
        const description = `${++number} - ${tapDescription(`bench ${bench.suite} ${goal.id} ${goal.description}`)}`;
        lines.push(
          goal.status === "met"
            ? `ok ${description}`
            : goal.status === "noisy"
              ? `ok ${description} # SKIP ${directiveText(`${RERUN_ADVICE}: ${goal.reason ?? "the measurement is not conclusive"}`)}`
              : [`not ok ${description}`, ...diagnostics([["measured", goal.measured], ["limit", goal.limit], ["bound", goal.floor === true ? "at least" : "at most"], ["unit", goal.unit]])].join("\n"),
        );
      }
    }
    return ["TAP version 14", `1..${number}`, ...lines].join("\n") + "\n";
  },
};
