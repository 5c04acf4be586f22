/**
 * Where a result goes, all of it through reporters: one format on stdout, every reporter's file
 * in `--out DIR`, and whatever the environment names (GitHub's job summary).
 */
import { appendFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { ResultJson } from "../harness/result/index.ts";
import { writeFilesAtomically } from "../harness/util/write-files.ts";
import { allReporters, reporterFor } from "./registry.ts";

export interface PublishTarget {
  stdout(text: string): void;
  env: NodeJS.ProcessEnv;
}

export interface PublishOptions {
  /** The format printed on stdout; null prints nothing. */
  format: string | null;
  /** ANSI colour on stdout (files are always colourless). */
  color?: boolean;
  /** Heading of stdout's document; its reporter's own when absent. */
  stdoutTitle?: string;
  /** The directory every reporter with a file writes into, or null. */
  out: string | null;
  /** Heading of the documents written to files and targets. */
  title: string;
  /** Append to the targets the environment names (GitHub's job summary). */
  environment: boolean;
}

/**
 * Renders each reporter that has a file (colourless), then writes them as one set: every file goes
 * to a temporary name and is renamed into place only when all are written, so a failure leaves
 * none half written and no mix of old and new reports. Returns the paths written, in registry order.
 */
export async function writeAllReports(result: ResultJson, directory: string, options: { title?: string } = {}): Promise<string[]> {
  const files = allReporters()
    .filter((reporter) => reporter.fileName !== null)
    .map((reporter) => ({ path: join(directory, reporter.fileName!), data: reporter.render(result, { color: false, ...(options.title !== undefined ? { title: options.title } : {}) }) }));
  await mkdir(directory, { recursive: true });
  writeFilesAtomically(files);
  return files.map((file) => file.path);
}

/** The files of `--out`, then the environment's targets, then stdout; returns the files written. */
export async function publishResult(result: ResultJson, target: PublishTarget, options: PublishOptions): Promise<string[]> {
  const written = options.out === null ? [] : await writeAllReports(result, options.out, { title: options.title });
  if (options.environment) {
    for (const reporter of allReporters()) {
      const file = reporter.appendTarget?.(target.env) ?? null;
      if (file !== null) appendFileSync(file, reporter.render(result, { title: options.title }));
    }
  }
  if (options.format !== null) {
    const reporter = reporterFor(options.format);
    target.stdout(reporter.render(result, { color: options.color === true, ...(options.stdoutTitle !== undefined ? { title: options.stdoutTitle } : {}) }));
  }
  return written;
}
