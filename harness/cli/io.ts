/** Where a command writes and what it runs in; tests pass their own. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** True when stdout is a terminal (colour, progress). */
  isTty: boolean;
}

/** Colour on stdout: only on a terminal, and never when NO_COLOR is set to anything but "" (no-color.org). */
export function wantsColor(io: CliIo): boolean {
  return io.isTty && !io.env["NO_COLOR"];
}

export function processIo(): CliIo {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    cwd: process.cwd(),
    env: process.env,
    isTty: Boolean(process.stdout.isTTY),
  };
}
