import { closeSync, openSync, realpathSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { UsageError } from "./errors.ts";

function code(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}

export interface OutputFile {
  path: string;
  data: string | Uint8Array;
}

/**
 * Writes a set of files so that none is left half-written: each is written to a temporary name
 * beside its target, and only when all are written are they renamed into place. A failure
 * while writing removes the temporary files and leaves every target as it was.
 */
export function writeFilesAtomically(files: readonly OutputFile[]): void {
  const staged: Array<{ temporary: string; path: string }> = [];
  let current = "the output";
  try {
    for (const file of files) {
      current = file.path;
      const target = renameTarget(file.path);
      if (target === null) {
        // A device or a pipe (/dev/stdout, a FIFO) is written in place: renaming over it would replace it.
        writeAll(file.path, file.data, "w");
        continue;
      }
      const temporary = join(dirname(target), `.${target.slice(dirname(target).length + 1)}.${process.pid}.tmp`);
      staged.push({ temporary, path: target });
      writeAll(temporary, file.data, "w");
    }
    for (const { temporary, path } of staged) {
      current = path;
      renameSync(temporary, path);
    }
  } catch (error) {
    for (const { temporary } of staged) rmSync(temporary, { force: true });
    throw new UsageError(`cannot write ${current} (${code(error)})`);
  }
}

/** Where a rename must land: the file itself, the file a symlink points to, or null for a non-regular file. */
function renameTarget(path: string): string | null {
  try {
    if (!statSync(path).isFile()) return null;
    return realpathSync(path);
  } catch {
    return path;
  }
}

function writeAll(path: string, data: string | Uint8Array, flags: "w"): void {
  const fd = openSync(path, flags);
  try {
    const bytes = typeof data === "string" ? Buffer.from(data) : data;
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes one file through `write` (which writes the path it is given) under a temporary name
 * beside the target, ending as the target ends (so a writer that picks its encoding by the name,
 * like `.gz`, picks the same), then renames it into place: a failure leaves no partial file.
 */
export function writeFileThrough(path: string, write: (temporaryPath: string) => void): void {
  const target = renameTarget(path);
  if (target === null) {
    write(path);
    return;
  }
  const name = target.slice(dirname(target).length + 1);
  const temporary = join(dirname(target), `.${process.pid}.tmp.${name}`);
  try {
    write(temporary);
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    // A file-system refusal (ENOSPC, EACCES, …) is the user's to fix; anything else is not.
    if (typeof (error as NodeJS.ErrnoException).code === "string") throw new UsageError(`cannot write ${path} (${code(error)})`);
    throw error;
  }
}
