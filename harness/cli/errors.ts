/** Errors that carry the process exit code (ARCHITECTURE decision 10). */
export class CtxbenchError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 | 3,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Bad arguments, a bad config or plugin file, an engine that fails to load: exit 2. */
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
