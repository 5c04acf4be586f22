/**
 * Every reporter, one line each. A reporter is one file (see reporter.ts); adding its line here
 * is all `--format`, `--out DIR` and the environment's targets need to know it.
 */
import { htmlReporter } from "./html.ts";
import { jobSummaryReporter } from "./job-summary.ts";
import { jsonReporter } from "./json.ts";
import { junitReporter } from "./junit.ts";
import { markdownReporter } from "./markdown.ts";
import type { ReportFormat, Reporter } from "./reporter.ts";
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

const added: Reporter[] = [];

/** Every registered reporter: the lines above, then any added by registerReporter. */
export function allReporters(): readonly Reporter[] {
  return [...BUILT_IN, ...added];
}

export function reporterFor(format: string): Reporter {
  const reporter = allReporters().find((candidate) => candidate.format === format);
  if (reporter === undefined) throw new Error(`no reporter for the format "${format}"`);
  return reporter;
}

/** The formats `--format` offers: every reporter that prints (with `pages`, whole pages such as HTML too). */
export function reportFormats(options: { pages?: boolean } = {}): string[] {
  return allReporters()
    .filter((reporter) => reporter.printable || (options.pages === true && reporter.fileName !== null))
    .map((reporter) => reporter.format);
}

/**
 * Registers one more reporter (a test's throwaway one, say) for as long as the returned function
 * is not called: `--format`, `--out DIR` and the environment's targets see it like the lines above.
 */
export function registerReporter(reporter: Reporter): () => void {
  if (allReporters().some((candidate) => candidate.format === reporter.format)) throw new Error(`a reporter for "${reporter.format}" is already registered`);
  added.push(reporter);
  return () => {
    const index = added.indexOf(reporter);
    if (index >= 0) added.splice(index, 1);
  };
}
