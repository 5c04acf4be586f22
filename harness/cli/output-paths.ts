import { closeSync, mkdirSync, openSync, rmSync, statSync, unlinkSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { UsageError } from "../util/errors.ts";

/**
 * The one place an output path given on the command line (--out, --home, --trace) is checked
 * and created, before any work: a path that is a file where a directory is wanted, lies under a
 * file, cannot be created or written is a one-line UsageError naming the option, instead of a
 * failure after the whole run. Directories are created one component at a time, because Node's
 * recursive mkdir never returns on some paths (`/proc/self/x`).
 */

function code(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}

function kindOf(path: string): "directory" | "file" | "missing" {
  try {
    return statSync(path).isDirectory() ? "directory" : "file";
  } catch (error) {
    if (code(error) === "ENOENT" || code(error) === "ENOTDIR") return "missing";
    throw error;
  }
}

/** Proves a directory takes new files: creates and removes a probe file in it. */
function assertWritableDirectory(flag: string, shown: string, directory: string): void {
  const probe = join(directory, `.ctxbench-write-probe-${process.pid}`);
  try {
    closeSync(openSync(probe, "wx"));
    unlinkSync(probe);
  } catch (error) {
    throw new UsageError(`${flag} ${shown}: cannot write in ${directory} (${code(error)})`);
  }
}

/**
 * Checks that `path` is, or can be made, a writable directory, and creates it (and its missing
 * parents). Returns the absolute path. The directories created are reported so a caller that
 * then fails can remove them.
 */
export function prepareOutputDirectory(flag: string, path: string, cwd: string): { path: string; created: string[] } {
  return prepareDirectory(flag, path, resolve(cwd, path), true);
}

/** `shown` is what the user typed; `isTarget` says whether `absolute` is that path itself or the directory of a file in it. */
function prepareDirectory(flag: string, shown: string, absolute: string, isTarget: boolean): { path: string; created: string[] } {
  const path = shown;
  const missing: string[] = [];
  let existing = absolute;
  for (;;) {
    const kind = kindOf(existing);
    if (kind === "directory") break;
    if (kind === "file") {
      throw new UsageError(
        existing === absolute && isTarget
          ? `${flag} ${path} is a file, not a directory`
          : `${flag} ${path}: ${existing} is a file, so nothing can be created under it`,
      );
    }
    missing.unshift(existing);
    const parent = dirname(existing);
    if (parent === existing) break;
    existing = parent;
  }
  const created: string[] = [];
  for (const directory of missing) {
    try {
      mkdirSync(directory);
      created.push(directory);
    } catch (error) {
      if (code(error) === "EEXIST" && kindOf(directory) === "directory") continue;
      removeCreated(created);
      throw new UsageError(`${flag} ${path}: cannot create ${directory} (${code(error)})`);
    }
  }
  try {
    assertWritableDirectory(flag, path, absolute);
  } catch (error) {
    removeCreated(created);
    throw error;
  }
  return { path: absolute, created };
}

/**
 * Checks that a file can be written at `path` (not a directory; its directory exists or can be
 * made, and takes new files) and creates the directory. Returns the absolute path.
 */
export function prepareOutputFile(flag: string, path: string, cwd: string): { path: string; created: string[] } {
  const absolute = resolve(cwd, path);
  if (kindOf(absolute) === "directory") throw new UsageError(`${flag} ${path} is a directory, not a file`);
  const { created } = prepareDirectory(flag, path, dirname(absolute), false);
  return { path: absolute, created };
}

/** Removes directories a preparation made (deepest first), for a command that fails before writing. */
export function removeCreated(created: readonly string[]): void {
  for (const directory of [...created].reverse()) rmSync(directory, { recursive: true, force: true });
}

export { writeFilesAtomically, writeFileThrough, type OutputFile } from "../util/write-files.ts";
