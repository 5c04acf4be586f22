import { closeSync, existsSync, openSync, readSync, statSync } from "node:fs";
import Database from "better-sqlite3";
import { StoreOpenError } from "./errors.ts";
import { assertUpgradable, readSchemaVersion, SCHEMA_VERSION } from "./schema.ts";

const SQLITE_HEADER = "SQLite format 3\u0000";

/** The page size of a store this build creates; an existing file keeps its own. */
export const STORE_PAGE_SIZE = 8192;

/** Refuses a file that exists but is not a SQLite database, before SQLite touches it. */
function assertSqliteFile(path: string): void {
  if (path === ":memory:" || !existsSync(path)) return;
  const size = statSync(path).size;
  if (size === 0) return;
  const header = Buffer.alloc(16);
  const fd = openSync(path, "r");
  try {
    readSync(fd, header, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  if (size < 100 || header.toString("latin1") !== SQLITE_HEADER) {
    throw new StoreOpenError(`${path} is not a SQLite database (its header does not match); the file was left untouched`);
  }
}

/**
 * Opens a connection and checks the stored layout before anything is written: a store newer
 * than this build, or one it cannot upgrade, is refused with the file untouched. WAL mode is
 * enabled only after those checks.
 */
export function openConnection(path: string, busyTimeoutMs: number, options: { durable?: boolean; exclusive?: boolean } = {}): Database.Database {
  assertSqliteFile(path);
  const db = new Database(path);
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
    let version: number | null;
    try {
      version = readSchemaVersion(db);
    } catch (error) {
      throw new StoreOpenError(`${path} could not be read as a session store: ${(error as Error).message}`);
    }
    if (typeof version === "number" && version > SCHEMA_VERSION) {
      throw new StoreOpenError(
        `${path} is a session store of schema v${version}, newer than this build (v${SCHEMA_VERSION}); the file was left untouched`,
      );
    }
    try {
      assertUpgradable(db, path);
    } catch (error) {
      if (error instanceof StoreOpenError) throw error;
      throw new StoreOpenError(`${path} could not be read as a session store: ${(error as Error).message}`);
    }
    // Only a new file takes it (in WAL mode the page size is fixed once written). 8 KiB pages
    // halve the WAL frames a batch writes where random uids spread it over a session's uid index
    // (+4 % appends into fresh sessions, +9 % into sessions of 10,000 messages, measured A/B).
    if (version === null) db.pragma(`page_size = ${STORE_PAGE_SIZE}`);
    if (path !== ":memory:") {
      // Exclusive: no other connection shares the file, so WAL's shared index buys nothing.
      if (options.exclusive === true) db.pragma("locking_mode = EXCLUSIVE");
      db.pragma(options.exclusive === true ? "journal_mode = MEMORY" : "journal_mode = WAL");
    }
    db.pragma(options.durable === false ? "synchronous = OFF" : "synchronous = NORMAL");
    // Random uids land all over the uid index; a larger page cache keeps batch appends fast.
    db.pragma("cache_size = -65536");
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
