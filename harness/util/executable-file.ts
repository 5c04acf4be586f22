import { accessSync, constants, statSync } from "node:fs";

/** A regular file this process may execute (a directory with the execute bit is not one). */
export function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
