/** Writes every format of one result into a directory (certify --out DIR, the main job's --out). */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { reporters } from "./registry.ts";
import { REPORT_FORMATS, type ReportFormat } from "./reporter.ts";
import type { ResultJson } from "./result.ts";

/** File name of each format inside the output directory. */
export const REPORT_FILE_NAMES: Readonly<Record<ReportFormat, string>> = {
  json: "result.json",
  terminal: "report.txt",
  markdown: "report.md",
  html: "report.html",
  junit: "junit.xml",
  tap: "report.tap",
};

/** Renders and writes each format (colourless); returns the paths written, in REPORT_FORMATS order. */
export async function writeAllReports(result: ResultJson, directory: string, options: { title?: string } = {}): Promise<string[]> {
  await mkdir(directory, { recursive: true });
  const written: string[] = [];
  for (const format of REPORT_FORMATS) {
    const path = join(directory, REPORT_FILE_NAMES[format]);
    await writeFile(path, reporters[format].render(result, { color: false, ...options }));
    written.push(path);
  }
  return written;
}
