import type { Database, Statement } from "better-sqlite3";
import { COPIED_COLUMNS } from "./rows.ts";

/** Value columns of a bound row, in order: the copied columns, then `active` and `compacted`. */
export const INSERT_COLUMNS = [...COPIED_COLUMNS, "active", "compacted"] as const;

const ACTIVE = INSERT_COLUMNS.indexOf("active");
const COMPACTED = INSERT_COLUMNS.indexOf("compacted");
const LARGEST_CHUNK = 128;
const STATEMENT_CACHE_LIMIT = 256;

/** A row's value of column `column` is what the table fills in by itself when the column is left out. */
function isColumnDefault(column: number, value: unknown): boolean {
  if (column === ACTIVE) return value === 1;
  if (column === COMPACTED) return value === 0;
  return value === null;
}

/**
 * Inserts the rows of one session with multi-row INSERT statements. A statement per row spends
 * most of its time crossing into SQLite and binding; a chunk of up to 128 rows, naming only the
 * columns some row of the chunk sets, inserts the same rows in a fraction of that. The trigger
 * and every index see each row exactly as a single-row insert would.
 */
export class BatchInserter {
  readonly #db: Database;
  readonly #statements = new Map<string, Statement>();

  constructor(db: Database) {
    this.#db = db;
  }

  /**
   * Inserts `rows` (arrays of INSERT_COLUMNS values) into `sessionId` in order and returns each
   * row's id. Run it inside a write transaction: the ids of one statement are then consecutive.
   */
  insert(sessionId: string, rows: readonly unknown[][]): number[] {
    const ids = new Array<number>(rows.length);
    let from = 0;
    while (from < rows.length) {
      const count = chunkLength(rows.length - from);
      const last = this.#insertChunk(sessionId, rows, from, count);
      for (let i = 0; i < count; i++) ids[from + i] = last - count + 1 + i;
      from += count;
    }
    return ids;
  }

  #insertChunk(sessionId: string, rows: readonly unknown[][], from: number, count: number): number {
    let mask = 0;
    for (let r = from; r < from + count; r++) {
      const row = rows[r] as unknown[];
      for (let c = 0; c < INSERT_COLUMNS.length; c++) if (!isColumnDefault(c, row[c])) mask |= 1 << c;
    }
    const columns: number[] = [];
    for (let c = 0; c < INSERT_COLUMNS.length; c++) if ((mask & (1 << c)) !== 0) columns.push(c);
    const values = new Array<unknown>(count * columns.length);
    let at = 0;
    for (let r = from; r < from + count; r++) {
      const row = rows[r] as unknown[];
      for (const c of columns) values[at++] = row[c];
    }
    const result = this.#statement(mask, columns, count).run({ session: sessionId }, values);
    if (result.changes !== count) throw new Error(`expected ${count} rows inserted, SQLite reported ${result.changes}`);
    return Number(result.lastInsertRowid);
  }

  #statement(mask: number, columns: number[], count: number): Statement {
    const key = `${mask}:${count}`;
    let statement = this.#statements.get(key);
    if (statement === undefined) {
      if (this.#statements.size >= STATEMENT_CACHE_LIMIT) this.#statements.clear();
      const names = columns.map((c) => INSERT_COLUMNS[c]).join(", ");
      const tuple = `(@session${columns.map(() => ", ?").join("")})`;
      statement = this.#db.prepare(`INSERT INTO messages (session_id${names.length > 0 ? `, ${names}` : ""}) VALUES ${Array(count).fill(tuple).join(", ")}`);
      this.#statements.set(key, statement);
    }
    return statement;
  }
}

/** Chunks of 128, then the remainder in powers of two: a handful of statement shapes serve every batch size. */
function chunkLength(remaining: number): number {
  if (remaining >= LARGEST_CHUNK) return LARGEST_CHUNK;
  let length = 1;
  while (length * 2 <= remaining) length *= 2;
  return length;
}
