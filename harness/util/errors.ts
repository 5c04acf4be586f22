/**
 * Errors that carry the process exit code. Every layer throws these for the failures it can
 * name, and the CLI's one handler prints the message and exits with the code: nothing is
 * translated by hand on the way up.
 */

/** 1: a negative verdict or a regression; 2: bad input (arguments, files, configuration); 3: a bug in ctxbench. */
export type ExitCode = 1 | 2 | 3;

export class CtxbenchError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Bad arguments, a bad file, a bad config or plugin, an engine that fails to load: exit 2. */
export class UsageError extends CtxbenchError {
  constructor(message: string) {
    super(message, 2);
  }
}

/** A negative verdict (not certified, a benchmark regression): exit 1. */
export class NegativeVerdict extends CtxbenchError {
  constructor(message: string) {
    super(message, 1);
  }
}
