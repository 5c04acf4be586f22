import type { ResultJson } from "./result.ts";

export const REPORT_FORMATS = ["terminal", "markdown", "html", "json", "junit", "tap"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export interface RenderOptions {
  /** ANSI colour in terminal output; the CLI turns it off when not a TTY or when NO_COLOR is set. */
  color?: boolean;
  /** Heading of documents (markdown, html). */
  title?: string;
}

/** One output format (as vitest's reporters: one file per format behind this interface). */
export interface Reporter {
  readonly format: ReportFormat;
  render(result: ResultJson, options?: RenderOptions): string;
}
