/** Writes every format of one result into a directory (certify --out DIR, the main job's --out). */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { writeFilesAtomically } from "../harness/util/write-files.ts";
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

/**
 * Renders each format (colourless), then writes them as one set: every file goes to a temporary
 * name and is renamed into place only when all are written, so a failure leaves none half
 * written and no mix of old and new reports. Returns the paths written, in REPORT_FORMATS order.
 */
export async function writeAllReports(result: ResultJson, directory: string, options: { title?: string } = {}): Promise<string[]> {
  const files = REPORT_FORMATS.map((format) => ({ path: join(directory, REPORT_FILE_NAMES[format]), data: reporters[format].render(result, { color: false, ...options }) }));
  await mkdir(directory, { recursive: true });
  writeFilesAtomically(files);
  return files.map((file) => file.path);
}
