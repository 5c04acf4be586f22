import type { Database, Statement } from "better-sqlite3";
import type { Message, MessageContent } from "../contract/types.ts";
import {
  advanceMessageUidBackfill,
  DEFAULT_BACKFILL_BUDGET_MS,
  DEFAULT_BACKFILL_CHUNK,
  type BackfillProgress,
} from "./backfill.ts";
import {
  DEFAULT_SETTLE_BUDGET_MS,
  DEFAULT_SETTLE_CHUNK,
  derivedFlags,
  raiseArchiveMark,
  readArchiveMark,
  settleArchiveMarks,
} from "./archive-marks.ts";
import { BatchInserter } from "./batch-insert.ts";
import { StoreInputError } from "./errors.ts";
import { decodeToolCallUids, decodeUidList, setUidEntry, toolCallUidMap, uidEntry, uidList } from "./identity-json.ts";
import { repairAlternation } from "./merges.ts";
import { openConnection } from "./open-file.ts";
import { routeSqlMinting } from "./sql-minter.ts";
import { cachedStatement } from "./statement-cache.ts";
import {
  bindValues,
  COPIED_COLUMNS,
  encodeContent,
  ROW_SELECT,
  rowFromArray,
  rowToMessage,
  storedRow,
  validateBatch,
  type MessageRow,
} from "./rows.ts";
import { ensureCurrentLayout, markCurrentVersion, readSchemaVersion } from "./schema.ts";
import {
  hasToolCallUid,
  indexToolCallUids,
  resolveToolCallUid,
  stampToolCallUids,
  toolCallId,
  toolCallsOf,
  toolCallUidFromHistory,
  type ToolCallUidIndex,
} from "./tool-call-uids.ts";
import { createRandomMinter, stampMessageUid, uidOrNull, type UidMinter } from "./uid.ts";
import type {
  ExportedMessage,
  RestoreOptions,
  RewindOutcome,
  SessionExport,
  SessionRecord,
  SessionStoreOptions,
  StoreOpenReport,
} from "./types.ts";

interface InsertEntry {
  message: Message;
  active?: boolean;
  compacted?: boolean;
}

const COLUMN_LIST = COPIED_COLUMNS.join(", ");
/** Upstream's sessions.source is NOT NULL (it tags 'cli', 'telegram', …); a session this store creates says where it came from. */
export const DEFAULT_SESSION_SOURCE = "ctxbench";
const TIMESTAMP_VALUE = COPIED_COLUMNS.indexOf("timestamp");
/** A session's active rows past a mark or row id, in id order (the restore's read). */
const ACTIVE_AFTER = "WHERE session_id = ? AND active = 1 AND id > ? ORDER BY id";

/**
 * The SQLite session store (schema v31): sessions, messages with stable identity, and every copy
 * path that must keep it (UID-1…8, TCU-1…2). One instance owns one connection.
 */
export class SessionStore {
  readonly path: string;
  /** What the open did: fresh or upgraded store, and the backfill slices it ran. */
  readonly openReport: StoreOpenReport;
  readonly #db: Database;
  readonly #mint: UidMinter;
  readonly #now: () => number;
  readonly #inserter: BatchInserter;
  readonly #selects = new Map<string, Statement>();
  readonly #clock: () => number;
  readonly #settleChunk: number;
  readonly #settleOnClose: boolean;
  readonly #exclusive: boolean;

  private constructor(path: string, db: Database, options: SessionStoreOptions) {
    this.path = path;
    this.#db = db;
    this.#mint = options.mintUid ?? createRandomMinter();
    this.#now = options.now ?? (() => Date.now() / 1000);
    routeSqlMinting(db, this.#mint);
    const clock = options.monotonicClock ?? (() => performance.now());
    this.#clock = clock;
    this.#settleChunk = options.settleChunk ?? DEFAULT_SETTLE_CHUNK;
    this.#settleOnClose = options.settleOnClose ?? path !== ":memory:";
    this.#exclusive = options.exclusive === true && path !== ":memory:";
    const layoutStarted = clock();
    const layout = ensureCurrentLayout(db, this.#now(), path);
    const layoutMs = clock() - layoutStarted;
    const backfill: BackfillProgress = advanceMessageUidBackfill(db, {
      chunk: options.backfillChunk ?? DEFAULT_BACKFILL_CHUNK,
      budgetMs: options.backfillBudgetMs ?? DEFAULT_BACKFILL_BUDGET_MS,
      clock,
      onSlice: options.onBackfillSlice,
    });
    markCurrentVersion(db);
    // Marks a crashed process left behind: written into the stored flags as far as the budget goes.
    const settle = settleArchiveMarks(db, { chunk: this.#settleChunk, budgetMs: options.settleBudgetMs ?? DEFAULT_SETTLE_BUDGET_MS, clock });
    this.openReport = { ...layout, layoutMs, backfill, settle };
    this.#inserter = new BatchInserter(db);
  }

  /** Opens (creating or upgrading) the store at `path`; refuses non-SQLite files and newer stores. */
  static open(path: string, options: SessionStoreOptions = {}): SessionStore {
    const db = openConnection(path, options.busyTimeoutMs ?? 5000, { ...(options.durable === undefined ? {} : { durable: options.durable }), exclusive: options.exclusive === true });
    try {
      return new SessionStore(path, db, options);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /**
   * Closes the connection. A file-backed store first settles its archive marks, so a build that
   * reads only the stored flags sees what this one does; `settleOnClose: false` skips that for a
   * store nobody else will read (a scratch store about to be deleted).
   */
  close(): void {
    if (!this.#db.open) return;
    try {
      if (this.#settleOnClose) settleArchiveMarks(this.#db, { chunk: this.#settleChunk, budgetMs: Number.POSITIVE_INFINITY, clock: this.#clock });
    } finally {
      this.#db.close();
    }
  }

  /**
   * Runs `work` with the file's locks released, for another connection to open it meanwhile (an
   * older build writing into the store); an exclusive connection takes them again at its next
   * access, and its journal back from whatever mode the other connection left the file in
   * (WAL, for any build of this store). Without `exclusive` the file is shared anyway.
   */
  shareFileWhile<T>(work: () => T): T {
    if (!this.#exclusive) return work();
    this.#db.pragma("locking_mode = NORMAL");
    // In normal mode the locks go at the end of the next access.
    cachedStatement(this.#db, "SELECT 1 FROM sqlite_master LIMIT 1").get();
    try {
      return work();
    } finally {
      this.#db.pragma("locking_mode = EXCLUSIVE");
      // A connection learns the file's journal mode when it next reads it.
      cachedStatement(this.#db, "SELECT 1 FROM sqlite_master LIMIT 1").get();
      this.#db.pragma("journal_mode = MEMORY");
    }
  }

  /** Writes every archive mark into the stored flags now (close does it too); returns the rows written. */
  settleArchive(): number {
    return settleArchiveMarks(this.#db, { chunk: this.#settleChunk, budgetMs: Number.POSITIVE_INFINITY, clock: this.#clock }).rowsSettled;
  }

  /** This connection's value of a SQLite pragma (what a setting took effect as, e.g. `synchronous`). */
  connectionPragma(name: "synchronous" | "journal_mode" | "page_size"): unknown {
    return this.#db.pragma(name, { simple: true });
  }

  get schemaVersion(): number | null {
    return readSchemaVersion(this.#db);
  }

  /** Runs `work` in one write transaction (for callers that combine several operations). */
  transaction<T>(work: () => T): T {
    return this.#db.transaction(work).immediate();
  }

  // ---- sessions -------------------------------------------------------------------------------

  createSession(id: string, options: { parentId?: string; source?: string; systemPrompt?: string } = {}): void {
    if (typeof id !== "string" || id.length === 0) throw new StoreInputError("session id must be a non-empty string");
    cachedStatement(this.#db, "INSERT OR IGNORE INTO sessions (id, source, parent_session_id, system_prompt, started_at) VALUES (?, ?, ?, ?, ?)")
      .run(id, options.source ?? DEFAULT_SESSION_SOURCE, options.parentId ?? null, options.systemPrompt ?? null, this.#now());
  }

  getSession(id: string): SessionRecord | null {
    return (this.#db.prepare("SELECT * FROM sessions WHERE id = ?").get(id) as SessionRecord | undefined) ?? null;
  }

  listSessions(): SessionRecord[] {
    return this.#db.prepare("SELECT * FROM sessions ORDER BY started_at, id").all() as SessionRecord[];
  }

  // ---- writes ---------------------------------------------------------------------------------

  /**
   * Appends a batch atomically. Each message gets its uid stamped on the caller's object before
   * its row is bound (any non-empty string supplied is kept), plus `_row_id` and `timestamp`.
   * Tool results pair with calls of the same batch. Returns the new row ids.
   */
  appendMessages(sessionId: string, messages: Message[]): number[] {
    validateBatch(messages);
    return this.#db
      .transaction(() => {
        this.createSession(sessionId);
        return this.#insertRows(sessionId, messages.map((message) => ({ message })));
      })
      .immediate();
  }

  /**
   * Persists the unflushed tail `live.slice(fromIndex)` of a live conversation. A result whose
   * call was flushed earlier pairs by walking the live list back to the nearest assistant that
   * named its id, never across a user turn.
   */
  flush(sessionId: string, live: Message[], fromIndex: number): number[] {
    const tail = live.slice(fromIndex);
    validateBatch(tail);
    return this.#db
      .transaction(() => {
        this.createSession(sessionId);
        return this.#insertRows(sessionId, tail.map((message) => ({ message })), { live, offset: fromIndex });
      })
      .immediate();
  }

  /**
   * Rewrites one existing row in place from a message carrying `_row_id`. The row's uid never
   * changes (a message that lost it adopts it back); stored tool-call uids fill calls the message
   * still names; a call it dropped loses its uid.
   */
  rewriteMessage(sessionId: string, message: Message): void {
    validateBatch([message]);
    const rowId = message._row_id;
    const row =
      typeof rowId === "number"
        ? this.#selectRows("WHERE id = ? AND session_id = ?", rowId, sessionId)[0]
        : undefined;
    if (row === undefined) throw new StoreInputError(`message has no row ${String(rowId)} in session "${sessionId}"`, 0);
    if (row.message_uid !== null) message.message_uid = row.message_uid;
    else stampMessageUid(message, this.#mint);
    fillToolCallUidsFromRow(message, row);
    if (!hasToolCallUid(message) && row.tool_call_uid !== null) message._tool_call_uid = row.tool_call_uid;
    if (uidList(message._absorbed_message_uids).length === 0) {
      const stored = decodeUidList(row.absorbed_message_uids);
      if (stored.length > 0) message._absorbed_message_uids = stored;
    }
    const values = bindValues(message, row.timestamp);
    const assignments = COPIED_COLUMNS.filter((column) => column !== "timestamp").map((column) => `${column} = ?`);
    const bound = values.filter((_, i) => COPIED_COLUMNS[i] !== "timestamp");
    this.#db.prepare(`UPDATE messages SET ${assignments.join(", ")} WHERE id = ?`).run(...bound, row.id);
  }

  /** Replaces the content of the latest active row carrying `uid`; returns that row's id. */
  rewriteContent(sessionId: string, uid: string, content: MessageContent): number {
    validateBatch([{ role: "user", content }]);
    const row = this.#latestActiveRow(sessionId, uid);
    this.#db.prepare("UPDATE messages SET content = ? WHERE id = ?").run(encodeContent(content), row.id);
    return row.id;
  }

  /** Appends an edited copy of the latest active row carrying `uid`: two active rows then share the uid (UID-7). */
  appendEditedCopy(sessionId: string, uid: string, content: MessageContent): Message {
    const copy = rowToMessage(this.#latestActiveRow(sessionId, uid), false);
    delete copy.timestamp;
    copy.content = content;
    this.appendMessages(sessionId, [copy]);
    return copy;
  }

  // ---- restore --------------------------------------------------------------------------------

  /**
   * The active conversation of a session (the restore). Identity fields are always present;
   * `_row_id` only on request. Results stored without a tool-call uid are paired with the
   * preceding assistant row here, on the returned objects only.
   */
  getMessages(sessionId: string, options: RestoreOptions = {}): Message[] {
    return restoredMessages(this.#selectRows(ACTIVE_AFTER, sessionId, this.#mark(sessionId)), options);
  }

  /** Raw rows of a session in id order (flags as the archive mark makes them); archived rows too when asked. */
  getRows(sessionId: string, options: { includeInactive?: boolean } = {}): MessageRow[] {
    const mark = this.#mark(sessionId);
    if (options.includeInactive !== true) return this.#selectRows(ACTIVE_AFTER, sessionId, mark);
    const rows = this.#selectRows("WHERE session_id = ? ORDER BY id", sessionId);
    if (mark > 0) for (const row of rows) Object.assign(row, derivedFlags(row.id, row.active, row.compacted, mark));
    return rows;
  }

  /** The highest active row id of a session: the watermark a compaction snapshot covers. */
  watermark(sessionId: string): number {
    const row = cachedStatement(this.#db, "SELECT COALESCE(MAX(id), 0) AS high FROM messages WHERE session_id = ? AND active = 1 AND id > ?")
      .get(sessionId, this.#mark(sessionId)) as { high: number };
    return row.high;
  }

  // ---- copy paths -----------------------------------------------------------------------------

  /**
   * Commits an in-place compaction: active rows up to `watermark` are archived (they keep their
   * uids), the compacted list is inserted (its uids kept, engine-authored ones included, the rest
   * minted), and rows that arrived after the watermark are cloned after it byte-exact. Every row
   * the session had before is archived by raising its archive mark, not by rewriting each row
   * (see archive-marks.ts). Returns the new live list.
   */
  compactInPlace(sessionId: string, compactedMessages: Message[], watermark: number): Message[] {
    validateBatch(compactedMessages);
    const live = this.#db
      .transaction(() => {
        const before = this.#maxRowId(sessionId);
        const stored: Array<MessageRow | null> = [];
        this.#insertRows(sessionId, compactedMessages.map((message) => ({ message })), undefined, stored);
        this.#cloneRows(sessionId, sessionId, watermark, before);
        raiseArchiveMark(this.#db, sessionId, before);
        return this.#liveRows(sessionId, stored);
      })
      .immediate();
    return live === null ? this.getMessages(sessionId) : restoredMessages(live, {});
  }

  /**
   * Commits a compaction by rotation: a child session receives the handoff copies (uids kept or
   * minted) and, when a watermark is given, the parent's rows past it (up to the ceiling) cloned
   * with their identity. The parent is ended. Returns the child's live list.
   */
  rotate(
    parentId: string,
    childId: string,
    compactedMessages: Message[],
    options: { watermark?: number; watermarkCeiling?: number } = {},
  ): Message[] {
    validateBatch(compactedMessages);
    const live = this.#db
      .transaction(() => {
        if (this.getSession(childId) !== null) throw new StoreInputError(`session "${childId}" already exists`);
        this.createSession(childId, { parentId });
        this.#db.prepare("UPDATE sessions SET ended_at = ?, end_reason = 'compression' WHERE id = ?").run(this.#now(), parentId);
        const stored: Array<MessageRow | null> = [];
        this.#insertRows(childId, compactedMessages.map((message) => ({ message })), undefined, stored);
        if (options.watermark !== undefined) {
          this.#cloneRows(parentId, childId, options.watermark, options.watermarkCeiling ?? this.#maxRowId(parentId));
        }
        return this.#liveRows(childId, stored);
      })
      .immediate();
    return live === null ? this.getMessages(childId) : restoredMessages(live, {});
  }

  /**
   * Replaces a session's active messages. Default: delete the active rows and reissue the list
   * (uids on the objects kept, new ones minted). `archiveDropped`: rows matching the list's
   * prefix stay (and lend the objects their row id and uid); only the divergent suffix is
   * archived and reinserted.
   */
  replaceMessages(sessionId: string, messages: Message[], options: { archiveDropped?: boolean } = {}): void {
    validateBatch(messages);
    this.#db
      .transaction(() => {
        this.createSession(sessionId);
        if (options.archiveDropped !== true) {
          this.#db.prepare("DELETE FROM messages WHERE session_id = ? AND active = 1 AND id > ?").run(sessionId, this.#mark(sessionId));
          this.#insertRows(sessionId, messages.map((message) => ({ message })));
          return;
        }
        const rows = this.getRows(sessionId);
        let kept = 0;
        while (kept < rows.length && kept < messages.length && sameLogicalMessage(rows[kept] as MessageRow, messages[kept] as Message)) {
          const row = rows[kept] as MessageRow;
          const message = messages[kept] as Message;
          message._row_id = row.id;
          if (row.message_uid !== null) message.message_uid = row.message_uid;
          kept += 1;
        }
        const archive = this.#db.prepare("UPDATE messages SET active = 0 WHERE id = ?");
        for (const row of rows.slice(kept)) archive.run(row.id);
        this.#insertRows(sessionId, messages.slice(kept).map((message) => ({ message })));
      })
      .immediate();
  }

  /**
   * Undoes the last `turns` user turns: the rows from that user message on are archived and the
   * new head is reissued as the newest row under its uid (the replacement). With `warmHistory`
   * (the caller's live list, aligned with the active rows) the prefix is that list, its last
   * object given the replacement's row id and uid.
   */
  rewind(sessionId: string, options: { turns?: number; warmHistory?: Message[] } = {}): RewindOutcome {
    const turns = options.turns ?? 1;
    const rows = this.getRows(sessionId);
    const userPositions = rows.flatMap((row, position) => (row.role === "user" ? [position] : []));
    const cut = userPositions[userPositions.length - turns];
    if (turns < 1 || cut === undefined) {
      throw new StoreInputError(`session "${sessionId}" has ${userPositions.length} user turns; cannot rewind ${turns}`);
    }
    let replacement: MessageRow | null = null;
    this.#db
      .transaction(() => {
        const archive = this.#db.prepare("UPDATE messages SET active = 0 WHERE id = ?");
        for (const row of rows.slice(cut)) archive.run(row.id);
        const head = rows[cut - 1];
        if (head === undefined) return;
        this.#cloneRows(sessionId, sessionId, head.id - 1, head.id);
        archive.run(head.id);
        replacement = this.#selectRows("WHERE session_id = ? AND active = 1 AND id > ? ORDER BY id DESC LIMIT 1", sessionId, this.#mark(sessionId))[0] ?? null;
      })
      .immediate();
    const head = replacement as MessageRow | null;
    let prefix: Message[];
    if (options.warmHistory !== undefined) {
      prefix = options.warmHistory.slice(0, cut);
      const last = prefix[prefix.length - 1];
      if (last !== undefined && head !== null) {
        last._row_id = head.id;
        if (head.message_uid !== null) last.message_uid = head.message_uid;
      }
    } else prefix = this.getMessages(sessionId, { includeRowIds: true });
    return {
      prefix,
      replacementMessageUid: head?.message_uid ?? null,
      replacementRowId: head?.id ?? null,
      archivedRows: rows.length - cut,
    };
  }

  /**
   * Writes a branch: a child session holding copies of the caller's live history. A live object
   * without a uid is minted one first, so it and its row agree; tool-call uids travel only on
   * copies that carry tool calls or a tool-call id.
   */
  branch(parentId: string, childId: string, history: Message[]): Message[] {
    validateBatch(history);
    const copies = history.map((live) => {
      stampMessageUid(live, this.#mint);
      const copy: Message = { ...live };
      delete copy._row_id;
      if (toolCallsOf(copy).length === 0) delete copy._tool_call_uids;
      if (typeof copy.tool_call_id !== "string") delete copy._tool_call_uid;
      return copy;
    });
    this.#db
      .transaction(() => {
        if (this.getSession(childId) !== null) throw new StoreInputError(`session "${childId}" already exists`);
        this.createSession(childId, { parentId });
        this.#insertRows(childId, copies.map((message) => ({ message })));
      })
      .immediate();
    return this.getMessages(childId);
  }

  // ---- export / import ------------------------------------------------------------------------

  /** Every row of a session (archived too), identity columns exactly as stored. */
  exportSession(sessionId: string): SessionExport {
    const session = this.getSession(sessionId);
    if (session === null) throw new StoreInputError(`unknown session "${sessionId}"`);
    const messages = this.getRows(sessionId, { includeInactive: true }).map((row): ExportedMessage => {
      const restored = rowToMessage(row, false);
      return {
        role: row.role,
        content: restored.content ?? null,
        tool_call_id: row.tool_call_id,
        tool_calls: restored.tool_calls ?? null,
        tool_name: row.tool_name,
        timestamp: row.timestamp,
        token_count: row.token_count,
        finish_reason: row.finish_reason,
        reasoning: row.reasoning,
        display_kind: row.display_kind,
        display_metadata: restored.display_metadata ?? null,
        active: row.active === 1,
        compacted: row.compacted === 1,
        message_uid: row.message_uid,
        absorbed_message_uids: row.absorbed_message_uids,
        tool_call_uids: row.tool_call_uids,
        tool_call_uid: row.tool_call_uid,
      };
    });
    return { format: "ctxbench-session", version: 1, session, messages };
  }

  /**
   * Imports exported sessions, keeping every identity column. With `chunkRows` a long session
   * commits in chunks (releasing the write lock between them); pairing is stamped across all
   * chunks first, so a result still pairs with a call in an earlier chunk.
   */
  importSessions(payloads: SessionExport[], options: { chunkRows?: number } = {}): string[] {
    const prepared = payloads.map((payload, position) => {
      if (typeof payload !== "object" || payload === null || typeof payload.session?.id !== "string" || !Array.isArray(payload.messages)) {
        throw new StoreInputError(`import payload ${position} is not an exported session`);
      }
      if (this.getSession(payload.session.id) !== null) throw new StoreInputError(`session "${payload.session.id}" already exists`);
      const entries = payload.messages.map((exported) => ({
        message: importedMessage(exported),
        active: exported.active !== false,
        compacted: exported.compacted === true,
      }));
      validateBatch(entries.map((entry) => entry.message));
      return { session: payload.session, entries };
    });
    for (const { session, entries } of prepared) {
      const index: ToolCallUidIndex = new Map();
      for (const entry of entries) {
        stampMessageUid(entry.message, this.#mint);
        stampToolCallUids(entry.message, index, this.#mint);
      }
      const chunk = Math.max(1, options.chunkRows ?? (entries.length || 1));
      for (let start = 0; start < Math.max(entries.length, 1); start += chunk) {
        this.#db
          .transaction(() => {
            if (start === 0) {
              this.#db
                .prepare(
                  "INSERT INTO sessions (id, source, parent_session_id, system_prompt, started_at, ended_at, end_reason) VALUES (?, ?, ?, ?, ?, ?, ?)",
                )
                .run(session.id, session.source ?? DEFAULT_SESSION_SOURCE, session.parent_session_id, session.system_prompt, session.started_at, session.ended_at, session.end_reason);
            }
            this.#insertRows(session.id, entries.slice(start, start + chunk));
          })
          .immediate();
      }
    }
    return prepared.map(({ session }) => session.id);
  }

  /** Imports a history from another tool: supplied uids are kept, missing ones minted. */
  importForeignHistory(sessionId: string, messages: Message[], options: { source?: string } = {}): number[] {
    validateBatch(messages);
    return this.#db
      .transaction(() => {
        if (this.getSession(sessionId) !== null) throw new StoreInputError(`session "${sessionId}" already exists`);
        this.createSession(sessionId, { source: options.source ?? "import" });
        return this.#insertRows(sessionId, messages.map((message) => ({ message })));
      })
      .immediate();
  }

  // ---- internals ------------------------------------------------------------------------------

  /** Stamps every message in order (uids, tool-call uids, timestamp), then inserts the rows inside the caller's transaction. */
  #insertRows(sessionId: string, entries: InsertEntry[], history?: { live: Message[]; offset: number }, stored?: Array<MessageRow | null>): number[] {
    const index: ToolCallUidIndex = new Map();
    const rows = entries.map((entry, position) => {
      const message = entry.message;
      stampMessageUid(message, this.#mint);
      stampToolCallUids(message, index, this.#mint);
      if (history !== undefined && message.role === "tool" && !hasToolCallUid(message)) {
        const uid = toolCallUidFromHistory(history.live, history.offset + position);
        if (uid !== null) message._tool_call_uid = uid;
      }
      const timestamp = typeof message.timestamp === "number" ? message.timestamp : this.#now();
      const values = bindValues(message, timestamp);
      values.push(entry.active === false ? 0 : 1, entry.compacted === true ? 1 : 0);
      return values;
    });
    const rowIds = this.#inserter.insert(sessionId, rows);
    entries.forEach((entry, position) => {
      entry.message.timestamp = rows[position]?.[TIMESTAMP_VALUE] as number;
      entry.message._row_id = rowIds[position];
    });
    if (stored !== undefined) rows.forEach((values, position) => stored.push(storedRow(rowIds[position] as number, sessionId, values)));
    return rowIds;
  }

  /**
   * The active rows of a session a commit just wrote, inside its transaction: `stored` (the rows
   * bound, as storedRow made them) then the clones after them, which are the only rows read. Null
   * when some bound value would not come back exactly as bound: the caller then reads the session
   * back once committed.
   */
  #liveRows(sessionId: string, stored: Array<MessageRow | null>): MessageRow[] | null {
    const rows: MessageRow[] = [];
    for (const row of stored) {
      if (row === null) return null;
      rows.push(row);
    }
    const last = rows[rows.length - 1];
    const after = last === undefined ? this.#mark(sessionId) : last.id;
    return rows.concat(this.#selectRows(ACTIVE_AFTER, sessionId, after));
  }

  /** Clones active rows `from < id <= to` of one session into another, identity columns byte-exact. */
  #cloneRows(fromSession: string, toSession: string, afterId: number, throughId: number): void {
    cachedStatement(
      this.#db,
      `INSERT INTO messages (session_id, ${COLUMN_LIST}, active, compacted)
       SELECT ?, ${COLUMN_LIST}, 1, 0 FROM messages
       WHERE session_id = ? AND active = 1 AND id > ? AND id <= ? ORDER BY id`,
    ).run(toSession, fromSession, Math.max(afterId, this.#mark(fromSession)), throughId);
  }

  /** Rows of the session up to this id are archived by a committed compaction, whatever their stored flags say. */
  #mark(sessionId: string): number {
    return readArchiveMark(this.#db, sessionId);
  }

  /** Reads rows as arrays and maps them (object rows with this many columns are several times slower). */
  #selectRows(clause: string, ...params: unknown[]): MessageRow[] {
    let statement = this.#selects.get(clause);
    if (statement === undefined) {
      statement = this.#db.prepare(`SELECT ${ROW_SELECT} FROM messages ${clause}`).raw(true);
      this.#selects.set(clause, statement);
    }
    return (statement.all(...params) as unknown[][]).map(rowFromArray);
  }

  #maxRowId(sessionId: string): number {
    return (cachedStatement(this.#db, "SELECT COALESCE(MAX(id), 0) AS high FROM messages WHERE session_id = ?").get(sessionId) as { high: number }).high;
  }

  #latestActiveRow(sessionId: string, uid: string): MessageRow {
    const row = this.#selectRows("WHERE session_id = ? AND message_uid = ? AND active = 1 AND id > ? ORDER BY id DESC LIMIT 1", sessionId, uid, this.#mark(sessionId))[0];
    if (row === undefined) throw new StoreInputError(`no active message with uid ${uid} in session "${sessionId}"`);
    return row;
  }
}

/**
 * The restore of active rows in id order: results stored without a tool-call uid are paired with
 * the preceding assistant row, on the returned objects only.
 */
function restoredMessages(rows: readonly MessageRow[], options: RestoreOptions): Message[] {
  const index: ToolCallUidIndex = new Map();
  const messages = rows.map((row) => {
    const message = rowToMessage(row, options.includeRowIds === true);
    if (message.role === "user") index.clear();
    else if (message.role === "assistant") indexToolCallUids(index, message);
    else if (message.role === "tool" && !hasToolCallUid(message)) {
      const uid = resolveToolCallUid(index, message.tool_call_id);
      if (uid !== null) message._tool_call_uid = uid;
    }
    return message;
  });
  return options.repairAlternation === true ? repairAlternation(messages) : messages;
}

/** Prefix match for `archiveDropped`: role, content as the store would load it, tool-call id and calls. */
function sameLogicalMessage(row: MessageRow, message: Message): boolean {
  const calls = Array.isArray(message.tool_calls) && message.tool_calls.length > 0 ? JSON.stringify(message.tool_calls) : null;
  return (
    row.role === message.role &&
    row.content === encodeContent(message.content) &&
    row.tool_call_id === (typeof message.tool_call_id === "string" ? message.tool_call_id : null) &&
    row.tool_calls === calls
  );
}

/** Tool-call uids for a rewrite: the message's own value per id wins, stored ones fill the gaps, unnamed ids go. */
function fillToolCallUidsFromRow(message: Message, row: MessageRow): void {
  const named = new Set(toolCallsOf(message).flatMap((call) => {
    const id = toolCallId(call);
    return id === null ? [] : [id];
  }));
  const live = toolCallUidMap(message._tool_call_uids) ?? {};
  const stored = decodeToolCallUids(row.tool_call_uids) ?? {};
  const merged: NonNullable<Message["_tool_call_uids"]> = {};
  for (const id of named) {
    const value = uidEntry(live, id) ?? uidEntry(stored, id);
    if (value !== undefined) setUidEntry(merged, id, value);
  }
  if (Object.keys(merged).length > 0) message._tool_call_uids = merged;
  else delete message._tool_call_uids;
}

function importedMessage(exported: ExportedMessage): Message {
  const message: Message = { role: exported.role, content: exported.content };
  if (exported.tool_call_id !== null && exported.tool_call_id !== undefined) message.tool_call_id = exported.tool_call_id;
  if (Array.isArray(exported.tool_calls) && exported.tool_calls.length > 0) message.tool_calls = exported.tool_calls;
  if (typeof exported.tool_name === "string") message.name = exported.tool_name;
  if (typeof exported.timestamp === "number") message.timestamp = exported.timestamp;
  if (typeof exported.token_count === "number") message.token_count = exported.token_count;
  if (typeof exported.finish_reason === "string") message.finish_reason = exported.finish_reason;
  if (typeof exported.reasoning === "string") message.reasoning = exported.reasoning;
  if (typeof exported.display_kind === "string") message.display_kind = exported.display_kind;
  if (exported.display_metadata !== null && exported.display_metadata !== undefined) message.display_metadata = exported.display_metadata;
  const uid = uidOrNull(exported.message_uid);
  if (uid !== null) message.message_uid = uid;
  const absorbed = decodeUidList(exported.absorbed_message_uids ?? null);
  if (absorbed.length > 0) message._absorbed_message_uids = absorbed;
  const toolUids = decodeToolCallUids(exported.tool_call_uids ?? null);
  if (toolUids !== null) message._tool_call_uids = toolUids;
  const toolUid = uidOrNull(exported.tool_call_uid);
  if (toolUid !== null) message._tool_call_uid = toolUid;
  return message;
}
