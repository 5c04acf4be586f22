import Database from "better-sqlite3";

/**
 * The `sessions` and `messages` columns of stores written by upstream Hermes builds, one entry
 * per schema version covered, taken from hermes_state.py's history (v1–v6 from its migration
 * chain, v22 and v30 from SCHEMA_SQL at those versions, v31 = v30 plus the four identity
 * columns). Tests build a store exactly as each version left it from this data.
 */
export interface UpstreamLayout {
  version: number;
  sessions: readonly string[];
  messages: readonly string[];
  /** Whether the version has a state_meta table (later versions keep markers there). */
  stateMeta: boolean;
}

const V1_SESSIONS = [
  "id TEXT PRIMARY KEY",
  "source TEXT NOT NULL",
  "user_id TEXT",
  "model TEXT",
  "model_config TEXT",
  "system_prompt TEXT",
  "parent_session_id TEXT",
  "started_at REAL NOT NULL",
  "ended_at REAL",
  "end_reason TEXT",
  "message_count INTEGER DEFAULT 0",
  "tool_call_count INTEGER DEFAULT 0",
  "input_tokens INTEGER DEFAULT 0",
  "output_tokens INTEGER DEFAULT 0",
];
const V1_MESSAGES = [
  "id INTEGER PRIMARY KEY AUTOINCREMENT",
  "session_id TEXT NOT NULL REFERENCES sessions(id)",
  "role TEXT NOT NULL",
  "content TEXT",
  "tool_call_id TEXT",
  "tool_calls TEXT",
  "tool_name TEXT",
  "timestamp REAL NOT NULL",
  "token_count INTEGER",
];
/** v5: token and cost accounting per session. */
const V5_SESSION_COLUMNS = [
  "cache_read_tokens INTEGER DEFAULT 0",
  "cache_write_tokens INTEGER DEFAULT 0",
  "reasoning_tokens INTEGER DEFAULT 0",
  "billing_provider TEXT",
  "billing_base_url TEXT",
  "billing_mode TEXT",
  "estimated_cost_usd REAL",
  "actual_cost_usd REAL",
  "cost_status TEXT",
  "cost_source TEXT",
  "pricing_version TEXT",
];
/** v6: the assistant's reasoning kept across reloads. */
const V6_MESSAGE_COLUMNS = ["reasoning TEXT", "reasoning_details TEXT", "codex_reasoning_items TEXT"];

const V22_SESSIONS = [
  "id TEXT PRIMARY KEY", "source TEXT NOT NULL", "user_id TEXT", "session_key TEXT", "chat_id TEXT", "chat_type TEXT",
  "thread_id TEXT", "display_name TEXT", "origin_json TEXT", "expiry_finalized INTEGER DEFAULT 0", "model TEXT",
  "model_config TEXT", "system_prompt TEXT", "parent_session_id TEXT", "started_at REAL NOT NULL", "ended_at REAL",
  "end_reason TEXT", "message_count INTEGER DEFAULT 0", "tool_call_count INTEGER DEFAULT 0", "input_tokens INTEGER DEFAULT 0",
  "output_tokens INTEGER DEFAULT 0", "cache_read_tokens INTEGER DEFAULT 0", "cache_write_tokens INTEGER DEFAULT 0",
  "reasoning_tokens INTEGER DEFAULT 0", "cwd TEXT", "git_branch TEXT", "git_repo_root TEXT", "billing_provider TEXT",
  "billing_base_url TEXT", "billing_mode TEXT", "estimated_cost_usd REAL", "actual_cost_usd REAL", "cost_status TEXT",
  "cost_source TEXT", "pricing_version TEXT", "title TEXT", "api_call_count INTEGER DEFAULT 0", "handoff_state TEXT",
  "handoff_platform TEXT", "handoff_error TEXT", "compression_failure_cooldown_until REAL", "compression_failure_error TEXT",
  "compression_fallback_streak INTEGER NOT NULL DEFAULT 0", "profile_name TEXT", "rewind_count INTEGER NOT NULL DEFAULT 0",
  "archived INTEGER NOT NULL DEFAULT 0",
];
const V22_MESSAGES = [
  "id INTEGER PRIMARY KEY AUTOINCREMENT", "session_id TEXT NOT NULL REFERENCES sessions(id)", "role TEXT NOT NULL",
  "content TEXT", "tool_call_id TEXT", "tool_calls TEXT", "tool_name TEXT", "effect_disposition TEXT",
  "timestamp REAL NOT NULL", "token_count INTEGER", "finish_reason TEXT", "reasoning TEXT", "reasoning_content TEXT",
  "reasoning_details TEXT", "codex_reasoning_items TEXT", "codex_message_items TEXT", "platform_message_id TEXT",
  "observed INTEGER DEFAULT 0", "active INTEGER NOT NULL DEFAULT 1", "compacted INTEGER NOT NULL DEFAULT 0", "api_content TEXT",
];

const V30_SESSIONS = [
  "id TEXT PRIMARY KEY", "source TEXT NOT NULL", "created_source TEXT", "user_id TEXT", "session_key TEXT", "chat_id TEXT",
  "chat_type TEXT", "thread_id TEXT", "display_name TEXT", "origin_json TEXT", "expiry_finalized INTEGER DEFAULT 0",
  "model TEXT", "model_config TEXT", "system_prompt TEXT", "system_prompt_hash TEXT", "parent_session_id TEXT",
  "started_at REAL NOT NULL", "ended_at REAL", "end_reason TEXT", "message_count INTEGER DEFAULT 0",
  "tool_call_count INTEGER DEFAULT 0", "input_tokens INTEGER DEFAULT 0", "output_tokens INTEGER DEFAULT 0",
  "cache_read_tokens INTEGER DEFAULT 0", "cache_write_tokens INTEGER DEFAULT 0", "reasoning_tokens INTEGER DEFAULT 0",
  "cwd TEXT", "git_branch TEXT", "git_repo_root TEXT", "git_metadata_generation INTEGER NOT NULL DEFAULT 0",
  "billing_provider TEXT", "billing_base_url TEXT", "billing_mode TEXT", "estimated_cost_usd REAL", "actual_cost_usd REAL",
  "cost_status TEXT", "cost_source TEXT", "pricing_version TEXT", "title TEXT", "title_source TEXT", "last_activity_at REAL",
  "last_activity_description TEXT", "last_activity_provenance TEXT", "api_call_count INTEGER DEFAULT 0", "handoff_state TEXT",
  "handoff_platform TEXT", "handoff_error TEXT", "compression_failure_cooldown_until REAL", "compression_failure_error TEXT",
  "compression_fallback_streak INTEGER NOT NULL DEFAULT 0", "compression_ineffective_count INTEGER NOT NULL DEFAULT 0",
  "compression_recovery_deadline REAL", "compression_overload_streak INTEGER NOT NULL DEFAULT 0", "profile_name TEXT",
  "transport_profile TEXT", "rewind_count INTEGER NOT NULL DEFAULT 0", "archived INTEGER NOT NULL DEFAULT 0",
  "pinned INTEGER NOT NULL DEFAULT 0", "hidden INTEGER NOT NULL DEFAULT 0", "last_read_at REAL", "tool_names TEXT",
];
const V30_MESSAGES = [
  "id INTEGER PRIMARY KEY AUTOINCREMENT", "session_id TEXT NOT NULL REFERENCES sessions(id)", "role TEXT NOT NULL",
  "content TEXT", "tool_call_id TEXT", "tool_calls TEXT", "tool_name TEXT", "effect_disposition TEXT",
  "timestamp REAL NOT NULL", "token_count INTEGER", "finish_reason TEXT", "reasoning TEXT", "reasoning_content TEXT",
  "reasoning_details TEXT", "codex_reasoning_items TEXT", "codex_message_items TEXT", "platform_message_id TEXT",
  "observed INTEGER DEFAULT 0", "_compressed_summary INTEGER NOT NULL DEFAULT 0", "active INTEGER NOT NULL DEFAULT 1",
  "compacted INTEGER NOT NULL DEFAULT 0", "api_content TEXT", "display_kind TEXT", "display_metadata TEXT",
  "display_identity BLOB", "display_order INTEGER",
];
const V31_MESSAGE_COLUMNS = ["message_uid TEXT", "absorbed_message_uids TEXT", "tool_call_uids TEXT", "tool_call_uid TEXT"];

const v1: UpstreamLayout = { version: 1, sessions: V1_SESSIONS, messages: V1_MESSAGES, stateMeta: false };
const v2: UpstreamLayout = { ...v1, version: 2, messages: [...v1.messages, "finish_reason TEXT"] };
const v3: UpstreamLayout = { ...v2, version: 3, sessions: [...v2.sessions, "title TEXT"] };
// v4 added only a unique index on sessions.title: the same columns as v3.
const v4: UpstreamLayout = { ...v3, version: 4 };
const v5: UpstreamLayout = { ...v4, version: 5, sessions: [...v4.sessions, ...V5_SESSION_COLUMNS] };
const v6: UpstreamLayout = { ...v5, version: 6, messages: [...v5.messages, ...V6_MESSAGE_COLUMNS] };
const v22: UpstreamLayout = { version: 22, sessions: V22_SESSIONS, messages: V22_MESSAGES, stateMeta: true };
const v30: UpstreamLayout = { version: 30, sessions: V30_SESSIONS, messages: V30_MESSAGES, stateMeta: true };
const v31: UpstreamLayout = { ...v30, version: 31, messages: [...V30_MESSAGES, ...V31_MESSAGE_COLUMNS] };

export const UPSTREAM_LAYOUTS: readonly UpstreamLayout[] = [v1, v2, v3, v4, v5, v6, v22, v30, v31];

export function columnNames(definitions: readonly string[]): string[] {
  return definitions.map((definition) => definition.split(" ")[0]!);
}

/** One stored row; keys a layout lacks are dropped, as that version could not have written them. */
export type UpstreamRow = Record<string, string | number | null>;

export interface UpstreamSession {
  id: string;
  row: UpstreamRow;
  messages: UpstreamRow[];
}

/**
 * Writes a store the way upstream schema `layout.version` left it: its tables and columns, its
 * version row, a full-text index kept by triggers on messages (every upstream version has one;
 * its exact shape varies, this is one of them), and the given rows.
 */
export function writeUpstreamStore(path: string, layout: UpstreamLayout, sessions: readonly UpstreamSession[]): void {
  const db = new Database(path);
  try {
    db.exec(`
      CREATE TABLE schema_version (version INTEGER NOT NULL);
      CREATE TABLE sessions (${[...layout.sessions, "FOREIGN KEY (parent_session_id) REFERENCES sessions(id)"].join(", ")});
      CREATE TABLE messages (${layout.messages.join(", ")});
      CREATE INDEX idx_messages_session ON messages(session_id, timestamp);
      CREATE VIRTUAL TABLE messages_fts USING fts5(content, content=messages, content_rowid=id);
      CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
        INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content);
      END;
      CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
        INSERT INTO messages_fts(messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
      END;
      CREATE TRIGGER messages_fts_update AFTER UPDATE ON messages BEGIN
        INSERT INTO messages_fts(messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
        INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content);
      END;
    `);
    if (layout.stateMeta) db.exec("CREATE TABLE state_meta (key TEXT PRIMARY KEY, value TEXT)");
    db.prepare("INSERT INTO schema_version (version) VALUES (?)").run(layout.version);
    const sessionColumns = new Set(columnNames(layout.sessions));
    const messageColumns = new Set(columnNames(layout.messages));
    db.transaction(() => {
      for (const session of sessions) {
        insertRow(db, "sessions", sessionColumns, { ...session.row, id: session.id });
        for (const message of session.messages) insertRow(db, "messages", messageColumns, { ...message, session_id: session.id });
      }
    })();
  } finally {
    db.close();
  }
}

function insertRow(db: Database.Database, table: string, columns: ReadonlySet<string>, row: UpstreamRow): void {
  const entries = Object.entries(row).filter(([column]) => columns.has(column));
  db.prepare(`INSERT INTO ${table} (${entries.map(([column]) => column).join(", ")}) VALUES (${entries.map(() => "?").join(", ")})`).run(
    ...entries.map(([, value]) => value),
  );
}
