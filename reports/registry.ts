/**
 * Every reporter, one line each. A reporter is one file (see reporter.ts); adding its line here
 * and its shape's line in formats.ts is all `--format`, `--out DIR` and the environment's targets need to know it.
 */
import { htmlReporter } from "./html.ts";
import { jobSummaryReporter } from "./job-summary.ts";
import { jsonReporter } from "./json.ts";
import { junitReporter } from "./junit.ts";
import { markdownReporter } from "./markdown.ts";
import type { ReportFormat, Reporter } from "./reporter.ts";
import { addedReporters } from "./formats.ts";
import { tapReporter } from "./tap.ts";
import { terminalReporter } from "./terminal.ts";

const BUILT_IN = [terminalReporter, markdownReporter, htmlReporter, jsonReporter, junitReporter, tapReporter, jobSummaryReporter] as const;

/** The built-in reporters by format, for code that names one. */
export const reporters: Readonly<Record<ReportFormat, Reporter>> = {
  terminal: terminalReporter,
  markdown: markdownReporter,
  html: htmlReporter,
  json: jsonReporter,
  junit: junitReporter,
  tap: tapReporter,
};

/** Every registered reporter: the lines above, then any added by registerReporter (formats.ts). */
export function allReporters(): readonly Reporter[] {
  return [...BUILT_IN, ...addedReporters];
}

export function reporterFor(format: string): Reporter {
  const reporter = allReporters().find((candidate) => candidate.format === format);
  if (reporter === undefined) throw new Error(`no reporter for the format "${format}"`);
  return reporter;
}

/** The built-in reporters in order, for the test that holds formats.ts's shapes equal to them. */
export const BUILT_IN_REPORTERS: readonly Reporter[] = BUILT_IN;

export { registerReporter, reportFormats } from "./formats.ts";
