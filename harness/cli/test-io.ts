import type { CliIo } from "./io.ts";

/** An in-memory CliIo for running commands without a process. */
export function memoryIo(cwd: string, options: { isTty?: boolean; env?: NodeJS.ProcessEnv } = {}): CliIo & { out: () => string; err: () => string } {
  let out = "";
  let err = "";
  return {
    stdout: (text) => void (out += text),
    stderr: (text) => void (err += text),
    cwd,
    env: options.env ?? {},
    isTty: options.isTty ?? false,
    out: () => out,
    err: () => err,
  };
}
