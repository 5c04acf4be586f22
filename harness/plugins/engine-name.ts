import { UsageError } from "../util/errors.ts";

/** Refuse a name that could leave the plugin roots, before any file is touched. */
export function assertSafeEngineName(name: string, origin: string): void {
  if (/[/\\\0]/.test(name) || name.includes("..") || name === ".") {
    throw new UsageError(`${origin}: engine name ${JSON.stringify(name)} must not contain a path separator or ".."`);
  }
}
