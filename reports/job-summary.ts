/** GitHub's job summary: in Actions, every certify and merge appends its Markdown report to $GITHUB_STEP_SUMMARY. */
import { markdownReporter } from "./markdown.ts";
import type { Reporter } from "./reporter.ts";

export const jobSummaryReporter: Reporter = {
  format: "github-summary",
  fileName: null,
  printable: false,
  appendTarget: (env) => env["GITHUB_STEP_SUMMARY"] || null,
  render: (result, options) => markdownReporter.render(result, options),
};
