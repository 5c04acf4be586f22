import Database from "better-sqlite3";
import { describeBytes, MAX_INPUT_BYTES } from "../../harness/util/input-limits.ts";
import { ImportError, type SourcedSession } from "./errors.ts";
import { storedRowToMessage } from "./json-sources.ts";

/** The oldest store layout this import reads: Hermes schema v1, the first with a schema_version table. */
export const OLDEST_IMPORTABLE_STORE_VERSION = 1;

const REQUIRED = Symbol("required");

/**
 * The columns the import reads, and what a layout without one means. Stores of older versions
 * lack later columns (`active` came after v6, the identity columns with v31); the reads
 * reconcile them here, declaratively, and the file is never written.
 */
const MESSAGE_COLUMNS: Readonly<Record<string, string | typeof REQUIRED>> = {
  id: REQUIRED,
  session_id: REQUIRED,
  role: REQUIRED,
  content: "NULL",
  tool_call_id: "NULL",
  tool_calls: "NULL",
  tool_name: "NULL",
  active: "1",
  message_uid: "NULL",
  tool_call_uids: "NULL",
  tool_call_uid: "NULL",
};
const SESSION_COLUMNS: Readonly<Record<string, string | typeof REQUIRED>> = {
  id: REQUIRED,
  system_prompt: "NULL",
  model: "NULL",
  started_at: "NULL",
};

/** The table of a ctxbench store's archive marks (harness/store/archive-marks.ts; a test keeps the names equal). */
export const ARCHIVE_MARKS_TABLE = "session_archive_marks";

/** The active rows of every session of a Hermes-style store, read-only, oldest session first. */
export function sessionsFromStore(file: string, maxTextBytes = MAX_INPUT_BYTES): SourcedSession[] {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new ImportError(file, null, `cannot open the SQLite file (${(error as Error).message})`);
  }
  try {
    return readStore(file, db, maxTextBytes);
  } catch (error) {
    if (error instanceof ImportError) throw error;
    throw new ImportError(file, null, `cannot read the store (${(error as Error).message})`);
  } finally {
    db.close();
  }
}

function readStore(file: string, db: Database.Database, maxTextBytes: number): SourcedSession[] {
  const tables = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map((t) => t.name));
  if (!tables.has("schema_version")) {
    const found = ["sessions", "messages"].filter((table) => tables.has(table));
    if (found.length === 0) throw new ImportError(file, null, "not a Hermes session store: no schema_version table");
    throw new ImportError(
      file,
      null,
      `has ${found.join(" and ")} tables but no schema_version table: a layout older than Hermes schema v${OLDEST_IMPORTABLE_STORE_VERSION}, the oldest this import reads`,
    );
  }
  for (const table of ["sessions", "messages"]) {
    if (!tables.has(table)) throw new ImportError(file, null, `not a Hermes session store: no ${table} table`);
  }
  const version = (db.prepare("SELECT version FROM schema_version LIMIT 1").get() as { version: unknown } | undefined)?.version;
  if (typeof version !== "number" || !Number.isSafeInteger(version) || version < OLDEST_IMPORTABLE_STORE_VERSION) {
    throw new ImportError(file, "schema_version", `holds ${JSON.stringify(version ?? null)}, not a store schema version (a whole number from ${OLDEST_IMPORTABLE_STORE_VERSION})`);
  }
  const sessionColumns = columnsOf(db, "sessions");
  const order = sessionColumns.has("started_at") ? "ORDER BY started_at, rowid" : "ORDER BY rowid";
  const sessions = db.prepare(`SELECT ${selectList(file, "sessions", sessionColumns, SESSION_COLUMNS)} FROM sessions ${order}`).all() as Array<Record<string, unknown>>;
  const messageColumns = columnsOf(db, "messages");
  const active = messageColumns.has("active") ? " AND active = 1" : "";
  const rowsOf = db.prepare(`SELECT ${selectList(file, "messages", messageColumns, MESSAGE_COLUMNS)} FROM messages WHERE session_id = ?${active} ORDER BY id`);
  const marks = archiveMarksOf(db, tables);
  const out: SourcedSession[] = [];
  let textBytes = 0;
  for (const record of sessions) {
    const id = String(record.id);
    const rows = unarchived(rowsOf.all(id) as Array<Record<string, unknown>>, marks.get(id) ?? 0);
    if (rows.length === 0) continue;
    // The scenarios hold every active message in memory: bound them as a transcript file is.
    for (const row of rows) textBytes += textLength(row.content) + textLength(row.tool_calls);
    if (textBytes > maxTextBytes) {
      throw new ImportError(file, null, `its active messages hold more than ${describeBytes(maxTextBytes)} of text, the most an import reads`);
    }
    const session: SourcedSession = {
      id,
      messages: rows.map((row) => {
        const where = `messages row ${String(row.id)}`;
        return { where, value: storedRowToMessage(file, where, row) };
      }),
    };
    if (typeof record.system_prompt === "string") session.systemPrompt = record.system_prompt;
    if (typeof record.model === "string" && record.model) session.model = record.model;
    out.push(session);
  }
  return out;
}

/** Each declared column as stored, or the value its absence means; a missing required column is an error. */
function selectList(file: string, table: string, present: ReadonlySet<string>, declared: Readonly<Record<string, string | typeof REQUIRED>>): string {
  const missing = Object.entries(declared).filter(([column, fallback]) => fallback === REQUIRED && !present.has(column)).map(([column]) => column);
  if (missing.length > 0) throw new ImportError(file, table, `the ${table} table lacks ${missing.join(", ")}`);
  return Object.entries(declared)
    .map(([column, fallback]) => (present.has(column) ? `"${column}"` : `${fallback as string} AS "${column}"`))
    .join(", ");
}

function textLength(value: unknown): number {
  return typeof value === "string" ? value.length : 0;
}

/**
 * A ctxbench store that was not closed (its process died) can still hold archive marks: rows at
 * or below a session's mark were archived by a committed compaction although their stored flag
 * still says active (harness/store/archive-marks.ts).
 */
function archiveMarksOf(db: Database.Database, tables: ReadonlySet<string>): Map<string, number> {
  if (!tables.has(ARCHIVE_MARKS_TABLE)) return new Map();
  const rows = db.prepare(`SELECT session_id, through_id FROM ${ARCHIVE_MARKS_TABLE}`).all() as Array<{ session_id: string; through_id: number }>;
  return new Map(rows.map((row) => [row.session_id, row.through_id]));
}

function unarchived(rows: Array<Record<string, unknown>>, mark: number): Array<Record<string, unknown>> {
  return mark === 0 ? rows : rows.filter((row) => !(typeof row.id === "number" && row.id <= mark));
}

function columnsOf(db: Database.Database, table: string): Set<string> {
  return new Set((db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((c) => c.name));
}
