import { UsageError } from "../../harness/util/errors.ts";

/** Input an import cannot use; names the file and the line or row that failed (exit 2). */
export class ImportError extends UsageError {
  constructor(
    readonly file: string,
    readonly where: string | null,
    detail: string,
  ) {
    super(`${file}${where ? `: ${where}` : ""}: ${detail}`);
  }
}

/** A message as read from the input, with where it came from (for errors). */
export interface SourcedMessage {
  /** "line 12", "message 3", "messages row 41". */
  where: string;
  value: unknown;
}

/** One session of the input, in conversation order. */
export interface SourcedSession {
  id: string;
  messages: SourcedMessage[];
  model?: string;
  systemPrompt?: string;
}
