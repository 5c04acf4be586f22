import { UsageError } from "../util/errors.ts";

/** A message batch the store refuses; nothing of the batch was written. */
export class StoreInputError extends Error {
  override readonly name = "StoreInputError";
  constructor(
    message: string,
    readonly messageIndex: number | null = null,
  ) {
    super(message);
  }
}

/** A file the store refuses to open; the file was left untouched. Bad input, so exit 2. */
export class StoreOpenError extends UsageError {}
