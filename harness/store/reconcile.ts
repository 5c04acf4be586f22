import Database from "better-sqlite3";
import { StoreOpenError } from "./errors.ts";

/** One column as SQLite reports it (`PRAGMA table_info`). */
export interface ColumnInfo {
  name: string;
  type: string;
  notNull: boolean;
  /** The DEFAULT clause as SQL text, or null. */
  defaultSql: string | null;
  primaryKey: boolean;
}

/** The tables this store reads and writes; every other table of a Hermes store is left alone. */
export const STORE_TABLES = ["schema_version", "state_meta", "sessions", "messages"] as const;
export type StoreTable = (typeof STORE_TABLES)[number];

/**
 * Columns this store's inserts always bind. A live column outside this set that is NOT NULL
 * without a default would make every insert fail, so such a layout is refused at open.
 */
const ALWAYS_WRITTEN: Readonly<Record<StoreTable, ReadonlySet<string>>> = {
  schema_version: new Set(["version"]),
  state_meta: new Set(["key", "value"]),
  sessions: new Set(["id", "source", "started_at"]),
  messages: new Set(["session_id", "role", "timestamp"]),
};

/** The oldest layout an open can upgrade, in the words its errors use. */
export const OLDEST_UPGRADABLE = "Hermes schema v1, the first layout with a schema_version table";

export function tableColumns(db: Database.Database, table: string): ColumnInfo[] {
  const rows = db.prepare(`PRAGMA table_info("${table}")`).all() as Array<{
    name: string;
    type: string;
    notnull: number;
    dflt_value: string | null;
    pk: number;
  }>;
  return rows.map((row) => ({ name: row.name, type: row.type, notNull: row.notnull === 1, defaultSql: row.dflt_value, primaryKey: row.pk > 0 }));
}

/**
 * The declared layout: the columns SQLite parses out of the store's CREATE TABLE text, so the
 * schema SQL stays the one place that says what a column is (as upstream reconciles against its
 * SCHEMA_SQL, with no per-version column migrations).
 */
export function declaredLayout(schemaSql: string, addedColumns: Partial<Record<StoreTable, readonly string[]>> = {}): Map<StoreTable, ColumnInfo[]> {
  const scratch = new Database(":memory:");
  try {
    scratch.exec(schemaSql);
    for (const [table, definitions] of Object.entries(addedColumns)) {
      for (const definition of definitions ?? []) scratch.exec(`ALTER TABLE "${table}" ADD COLUMN ${definition}`);
    }
    return new Map(STORE_TABLES.map((table) => [table, tableColumns(scratch, table)]));
  } finally {
    scratch.close();
  }
}

function tableExists(db: Database.Database, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

/** `ALTER TABLE … ADD COLUMN` text for a declared column an existing table lacks. */
function addColumnSql(table: string, column: ColumnInfo): string {
  const parts = [`ALTER TABLE "${table}" ADD COLUMN "${column.name}"`];
  if (column.type !== "") parts.push(column.type);
  if (column.notNull) parts.push("NOT NULL");
  if (column.defaultSql !== null) parts.push(`DEFAULT ${column.defaultSql}`);
  return parts.join(" ");
}

/**
 * What an open must add to bring an existing store to the declared layout: one `ADD COLUMN`
 * per declared column a table lacks. Columns the store does not declare stay as they are.
 * Throws StoreOpenError, before anything is written, when a layout cannot be reconciled: a
 * missing key or NOT NULL column without a default (rows already exist, so SQLite cannot add
 * it), or an extra NOT NULL column without a default that this store's inserts would violate.
 */
export function planReconcile(db: Database.Database, path: string, layout: ReadonlyMap<StoreTable, ColumnInfo[]>): string[] {
  const statements: string[] = [];
  for (const [table, declared] of layout) {
    if (!tableExists(db, table)) continue;
    const live = tableColumns(db, table);
    const present = new Set(live.map((column) => column.name));
    for (const column of declared) {
      if (present.has(column.name)) continue;
      if (column.primaryKey || (column.notNull && column.defaultSql === null)) {
        throw new StoreOpenError(
          `${path}: table ${table} has no column ${column.name}, which an upgrade cannot add to existing rows; not a Hermes session store this build can open (the oldest it upgrades is ${OLDEST_UPGRADABLE}); the file was left untouched`,
        );
      }
      statements.push(addColumnSql(table, column));
    }
    for (const column of live) {
      if (column.notNull && column.defaultSql === null && !column.primaryKey && !ALWAYS_WRITTEN[table].has(column.name)) {
        throw new StoreOpenError(
          `${path}: table ${table} has a column ${column.name} that is NOT NULL without a default, which this build never writes; the file was left untouched`,
        );
      }
    }
  }
  return statements;
}
