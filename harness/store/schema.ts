import type { Database } from "better-sqlite3";
import { ARCHIVE_MARKS_SQL, ARCHIVE_MARKS_TABLE } from "./archive-marks.ts";
import { StoreOpenError } from "./errors.ts";
import { declaredLayout, OLDEST_UPGRADABLE, planReconcile } from "./reconcile.ts";

export const SCHEMA_VERSION = 31;
/** The last layout without message identity; older-build scenarios start from it. */
export const LEGACY_SCHEMA_VERSION = 30;

export const META_BACKFILL_DONE = "message_uid_backfill";
export const META_BACKFILL_CURSOR = "message_uid_backfill_id";

const BASE_TABLES_SQL = `
CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS state_meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS sessions (
  id TEXT PRIMARY KEY,
  source TEXT,
  parent_session_id TEXT,
  system_prompt TEXT,
  started_at REAL NOT NULL,
  ended_at REAL,
  end_reason TEXT
);
CREATE TABLE IF NOT EXISTS messages (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  session_id TEXT NOT NULL REFERENCES sessions(id),
  role TEXT NOT NULL,
  content TEXT,
  tool_call_id TEXT,
  tool_calls TEXT,
  tool_name TEXT,
  timestamp REAL NOT NULL,
  token_count INTEGER,
  finish_reason TEXT,
  reasoning TEXT,
  display_kind TEXT,
  display_metadata TEXT,
  _compressed_summary INTEGER NOT NULL DEFAULT 0,
  active INTEGER NOT NULL DEFAULT 1,
  compacted INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS idx_messages_session_id ON messages(session_id, id);
`;

/** The v31 identity columns: nullable, no default, no uniqueness (copies share a uid). */
export const IDENTITY_COLUMNS = ["message_uid", "absorbed_message_uids", "tool_call_uids", "tool_call_uid"] as const;

/** The v31 layout as data: what SQLite parses out of the tables' SQL, plus the identity columns. */
const CURRENT_LAYOUT = declaredLayout(BASE_TABLES_SQL, { messages: IDENTITY_COLUMNS.map((column) => `${column} TEXT`) });

const UID_INDEX_SQL = "CREATE INDEX idx_messages_session_uid ON messages(session_id, message_uid) WHERE active = 1";

// The comment lives inside the body: the stored text must equal this string for an open to
// recognise the trigger as settled and take no write lock.
export const UID_TRIGGER_SQL = `CREATE TRIGGER messages_message_uid_insert AFTER INSERT ON messages
WHEN new.message_uid IS NULL
BEGIN
  -- a row from a build that predates message_uid gets its identity here
  UPDATE messages SET message_uid = lower(hex(randomblob(16))) WHERE id = new.id;
END`;

function tableExists(db: Database, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

function storedSql(db: Database, type: "index" | "trigger", name: string): string | null {
  const row = db.prepare("SELECT sql FROM sqlite_master WHERE type = ? AND name = ?").get(type, name) as
    | { sql: string | null }
    | undefined;
  return row?.sql ?? null;
}

/** The stored schema version, or null for a store with no version row (fresh or empty). */
export function readSchemaVersion(db: Database): number | null {
  if (!tableExists(db, "schema_version")) return null;
  const row = db.prepare("SELECT version FROM schema_version LIMIT 1").get() as { version: number } | undefined;
  return row === undefined ? null : row.version;
}

/**
 * Refuses, before anything is written, a store this build cannot bring to v31: session tables
 * without a schema_version table (older than Hermes schema v1), a version that is not a
 * positive integer, or tables whose missing columns cannot be added (see planReconcile).
 */
export function assertUpgradable(db: Database, path: string): void {
  if (!tableExists(db, "schema_version")) {
    const found = ["sessions", "messages"].filter((table) => tableExists(db, table));
    if (found.length > 0) {
      throw new StoreOpenError(
        `${path} has ${found.join(" and ")} tables but no schema_version table: a layout older than ${OLDEST_UPGRADABLE}, which this build cannot upgrade; the file was left untouched`,
      );
    }
    return;
  }
  const version = readSchemaVersion(db);
  if (version !== null && (!Number.isSafeInteger(version) || version < 1)) {
    throw new StoreOpenError(`${path}: schema_version holds ${JSON.stringify(version)}, not a schema version (a whole number from 1); the file was left untouched`);
  }
  planReconcile(db, path, CURRENT_LAYOUT);
}

export function readMeta(db: Database, key: string): string | null {
  if (!tableExists(db, "state_meta")) return null;
  const row = db.prepare("SELECT value FROM state_meta WHERE key = ?").get(key) as { value: string | null } | undefined;
  return row?.value ?? null;
}

/** True when the v31 layout is complete, so an open need not write anything. */
function isSettled(db: Database, path: string): boolean {
  return (
    readSchemaVersion(db) === SCHEMA_VERSION &&
    tableExists(db, "sessions") &&
    tableExists(db, "messages") &&
    tableExists(db, "state_meta") &&
    tableExists(db, ARCHIVE_MARKS_TABLE) &&
    planReconcile(db, path, CURRENT_LAYOUT).length === 0 &&
    storedSql(db, "index", "idx_messages_session_uid") === UID_INDEX_SQL &&
    storedSql(db, "trigger", "messages_message_uid_insert") === UID_TRIGGER_SQL
  );
}

/**
 * Brings the layout to v31 declaratively, as upstream does: create the tables that are missing,
 * add every declared column an existing table lacks (a store of any older Hermes version),
 * leave columns this store does not declare alone, then the active-uid index, the insert
 * trigger and the archive marks table. A fresh store (no version row and no rows) is stamped v31 with the backfill marked
 * done. Returns whether the store was fresh and the version it had.
 */
export function ensureCurrentLayout(db: Database, now: number, path: string): { fresh: boolean; previousVersion: number | null } {
  const previousVersion = readSchemaVersion(db);
  if (isSettled(db, path)) return { fresh: false, previousVersion };
  let fresh = false;
  db.transaction(() => {
    db.exec(BASE_TABLES_SQL);
    db.exec(ARCHIVE_MARKS_SQL);
    for (const statement of planReconcile(db, path, CURRENT_LAYOUT)) db.exec(statement);
    if (storedSql(db, "index", "idx_messages_session_uid") !== UID_INDEX_SQL) {
      db.exec("DROP INDEX IF EXISTS idx_messages_session_uid");
      db.exec(UID_INDEX_SQL);
    }
    if (storedSql(db, "trigger", "messages_message_uid_insert") !== UID_TRIGGER_SQL) {
      db.exec("DROP TRIGGER IF EXISTS messages_message_uid_insert");
      db.exec(UID_TRIGGER_SQL);
    }
    if (readSchemaVersion(db) === null) {
      db.prepare("INSERT INTO schema_version (version) VALUES (?)").run(SCHEMA_VERSION);
      // A version table without a row but with rows in it is not fresh: its rows still need uids.
      fresh = db.prepare("SELECT 1 FROM messages LIMIT 1").get() === undefined;
      const meta = db.prepare("INSERT OR IGNORE INTO state_meta (key, value) VALUES (?, ?)");
      meta.run("store_created_at_utc", String(now));
      if (fresh) meta.run(META_BACKFILL_DONE, "1");
    }
  }).immediate();
  return { fresh, previousVersion };
}

export function markCurrentVersion(db: Database): void {
  const version = readSchemaVersion(db);
  if (version !== null && version < SCHEMA_VERSION) db.prepare("UPDATE schema_version SET version = ?").run(SCHEMA_VERSION);
}

/**
 * Upstream's `(session_id, timestamp)` index. Older builds create it, so the v30 layout has it
 * and an upgraded store keeps it; a fresh store does without, because no query of this store
 * orders or filters by timestamp and every index is one more b-tree written per append.
 */
const LEGACY_TIMESTAMP_INDEX_SQL = "CREATE INDEX IF NOT EXISTS idx_messages_session ON messages(session_id, timestamp)";

/** The v30 layout (no identity columns, no trigger, no uid index), as an older build leaves it. */
export function ensureLegacyLayout(db: Database): void {
  db.transaction(() => {
    db.exec(BASE_TABLES_SQL);
    db.exec(LEGACY_TIMESTAMP_INDEX_SQL);
    if (readSchemaVersion(db) === null) {
      db.prepare("INSERT INTO schema_version (version) VALUES (?)").run(LEGACY_SCHEMA_VERSION);
    }
  }).immediate();
}
