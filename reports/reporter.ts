import type { ResultJson } from "../harness/result/index.ts";

/** The formats ctxbench itself registers (reports/registry.ts); a registered reporter may add more. */
export const REPORT_FORMATS = ["terminal", "markdown", "html", "json", "junit", "tap"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export interface RenderOptions {
  /** ANSI colour in terminal output; the CLI turns it off when not a TTY or when NO_COLOR is set. */
  color?: boolean;
  /** Heading of documents (markdown, html). */
  title?: string;
}

/**
 * One output of the result JSON (as vitest's reporters: one file per format behind this
 * interface). Everything ctxbench writes goes through one: stdout, the files of `--out DIR`, and
 * targets the environment names, such as GitHub's job summary.
 */
export interface Reporter {
  /** The name `--format` takes (a reporter that only writes to its own target may still be named). */
  readonly format: string;
  /** Its file in an `--out` directory; null when it writes none there. */
  readonly fileName: string | null;
  /** False for a whole page (HTML) that certify and merge do not offer on stdout, and for a target-only reporter. */
  readonly printable: boolean;
  /** A file this reporter appends to whenever the environment names one (GitHub's job summary); absent or null: none. */
  appendTarget?(env: NodeJS.ProcessEnv): string | null;
  render(result: ResultJson, options?: RenderOptions): string;
}
