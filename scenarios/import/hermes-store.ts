import Database from "better-sqlite3";
import { ImportError, type SourcedSession } from "./errors.ts";
import { storedRowToMessage } from "./json-sources.ts";

/** Session-store layouts this import reads: v30 (before message identity) and v31. */
export const IMPORTABLE_STORE_VERSIONS: readonly number[] = [30, 31];

const REQUIRED_MESSAGE_COLUMNS = ["id", "session_id", "role", "content", "tool_call_id", "tool_calls", "active"];

/** The active rows of every session of a Hermes-style store, read-only, oldest session first. */
export function sessionsFromStore(file: string): SourcedSession[] {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new ImportError(file, null, `cannot open the SQLite file (${(error as Error).message})`);
  }
  try {
    return readStore(file, db);
  } catch (error) {
    if (error instanceof ImportError) throw error;
    throw new ImportError(file, null, `cannot read the store (${(error as Error).message})`);
  } finally {
    db.close();
  }
}

function readStore(file: string, db: Database.Database): SourcedSession[] {
  const tables = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map((t) => t.name));
  for (const table of ["schema_version", "sessions", "messages"]) {
    if (!tables.has(table)) throw new ImportError(file, null, `not a Hermes session store: no ${table} table`);
  }
  const version = (db.prepare("SELECT version FROM schema_version LIMIT 1").get() as { version: unknown } | undefined)?.version;
  if (typeof version !== "number" || !IMPORTABLE_STORE_VERSIONS.includes(version)) {
    throw new ImportError(file, "schema_version", `unknown store schema version ${JSON.stringify(version ?? null)} (this import reads ${IMPORTABLE_STORE_VERSIONS.join(" and ")})`);
  }
  const messageColumns = columnsOf(db, "messages");
  const missing = REQUIRED_MESSAGE_COLUMNS.filter((c) => !messageColumns.has(c));
  if (missing.length > 0) throw new ImportError(file, "messages", `the messages table lacks ${missing.join(", ")}`);
  const sessionColumns = columnsOf(db, "sessions");
  const order = sessionColumns.has("started_at") ? "ORDER BY started_at, rowid" : "ORDER BY rowid";
  const sessions = db.prepare(`SELECT * FROM sessions ${order}`).all() as Array<Record<string, unknown>>;
  const rowsOf = db.prepare("SELECT * FROM messages WHERE session_id = ? AND active = 1 ORDER BY id");
  const out: SourcedSession[] = [];
  for (const record of sessions) {
    const id = String(record.id);
    const rows = rowsOf.all(id) as Array<Record<string, unknown>>;
    if (rows.length === 0) continue;
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

function columnsOf(db: Database.Database, table: string): Set<string> {
  return new Set((db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((c) => c.name));
}
