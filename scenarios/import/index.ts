import { closeSync, openSync, readSync } from "node:fs";
import { basename } from "node:path";
import { UsageError } from "../../harness/util/errors.ts";
import { readTextInput } from "../../harness/util/input-limits.ts";
import type { Scenario } from "../format.ts";
import { assembleScenario, DEFAULT_CONTEXT_LENGTH, DEFAULT_MODEL } from "../generate/generate.ts";
import { assertScenario, ScenarioFormatError } from "../validate.ts";
import { ImportError, type SourcedSession } from "./errors.ts";
import { sessionsFromStore } from "./hermes-store.ts";
import { sessionsFromJsonText } from "./json-sources.ts";
import { sessionFromTranscript } from "./turns.ts";

export { ImportError } from "./errors.ts";
export { OLDEST_IMPORTABLE_STORE_VERSION } from "./hermes-store.ts";

export interface ImportOptions {
  /** Model of the scenario when the source names none. */
  model?: string;
  contextLength?: number;
}

const SQLITE_MAGIC = "SQLite format 3\u0000";

/**
 * One scenario per session of a recorded conversation: an OpenAI-format message list (JSON
 * array or JSONL), a ctxbench session export, or a Hermes-style SQLite store of any schema version from v1 (read-only; later columns it lacks are read as absent).
 * Throws ImportError naming the file and the line or row that failed.
 */
export function importScenarios(file: string, options: ImportOptions = {}): Scenario[] {
  const sessions = readSessions(file);
  if (sessions.length === 0) throw new ImportError(file, null, "no session with messages to import");
  const source = basename(file);
  return sessions.map((sourced) => {
    const session = sessionFromTranscript(file, sourced);
    const scenario = assembleScenario(
      {
        name: `imported:${source}#${session.id}`,
        description: `Imported from ${source}, session ${session.id}: ${sourced.messages.length} message(s) in ${session.turns.length} turn(s).`,
        rules: [],
        seed: 0,
        model: sourced.model ?? options.model ?? DEFAULT_MODEL,
        contextLength: options.contextLength ?? DEFAULT_CONTEXT_LENGTH,
      },
      [{ session, canaries: [], secrets: [] }],
      session.turns.map((_, turn) => ({ kind: "turn", session: session.id, turn })),
    );
    try {
      assertScenario(scenario, `${file} session ${session.id}`);
    } catch (error) {
      if (error instanceof ScenarioFormatError) throw new ImportError(file, `session ${session.id}`, `${error.problem.path}: ${error.problem.message}`);
      throw error;
    }
    return scenario;
  });
}

function readSessions(file: string): SourcedSession[] {
  let head: Buffer;
  try {
    const fd = openSync(file, "r");
    try {
      head = Buffer.alloc(16);
      head = head.subarray(0, readSync(fd, head, 0, 16, 0));
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw new ImportError(file, null, `cannot read the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  if (head.toString("latin1") === SQLITE_MAGIC) return sessionsFromStore(file);
  let text: string;
  try {
    text = readTextInput(file, "transcript files");
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new ImportError(file, null, `cannot read the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const defaultId = basename(file).replace(/\.(jsonl?|ndjson)$/i, "") || "imported";
  return sessionsFromJsonText(file, text, defaultId);
}
