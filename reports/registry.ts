/** Every reporter by its format. */
import { htmlReporter } from "./html.ts";
import { jsonReporter } from "./json.ts";
import { junitReporter } from "./junit.ts";
import { markdownReporter } from "./markdown.ts";
import type { ReportFormat, Reporter } from "./reporter.ts";
import { tapReporter } from "./tap.ts";
import { terminalReporter } from "./terminal.ts";

export const reporters: Readonly<Record<ReportFormat, Reporter>> = {
  terminal: terminalReporter,
  markdown: markdownReporter,
  html: htmlReporter,
  json: jsonReporter,
  junit: junitReporter,
  tap: tapReporter,
};
