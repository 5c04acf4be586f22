import type { CliIo } from "./io.ts";

/** Progress lines on stderr: shown on a terminal only, quiet under CI=true or --quiet. */
export interface Progress {
  step(message: string): void;
}

export function createProgress(io: CliIo, options: { quiet?: boolean } = {}): Progress {
  const enabled = io.isTty && !options.quiet && io.env["CI"] !== "true" && io.env["CI"] !== "1";
  return {
    step(message) {
      if (enabled) io.stderr(`… ${message}\n`);
    },
  };
}
