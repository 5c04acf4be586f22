import Database from "better-sqlite3";
import type { Message } from "../../harness/contract/types.ts";
import { fingerprint, redactMessage, searchableText, uidOf } from "./text.ts";

/** A summary node as the store keeps it. */
export interface StoredNode {
  id: string;
  session: string;
  depth: number;
  summary: string;
  tokenCount: number;
  sourceTokenCount: number;
  /** Raw messages under the node, condensed nodes included. */
  messageCount: number;
  parent: string | null;
  children: string[];
}

/** A node a compaction pass made, held in memory until the host commits the pass. */
export interface StagedNode {
  id: string;
  depth: number;
  summary: string;
  tokenCount: number;
  sourceTokenCount: number;
  messageCount: number;
  /** Leaf: indices into the pass's `messages`. */
  messageIndices: number[];
  /** Condensed: ids of the nodes it condenses, oldest first. */
  children: string[];
}

/** Everything one compaction pass would write, published only after the host commits it (THR-4). */
export interface StagedPass {
  messages: Message[];
  nodes: StagedNode[];
}

export interface MessageHit {
  row: number;
  session: string;
  uid: string | null;
  role: string;
  text: string;
  /** False for an older version of a message whose uid has a newer one. */
  current: boolean;
}

export interface SummaryHit {
  node: string;
  depth: number;
  summary: string;
}

type HitRow = Omit<MessageHit, "current"> & { current: number };

export type SearchMode = "fts5" | "like";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, parent TEXT);
CREATE TABLE IF NOT EXISTS messages (
  row INTEGER PRIMARY KEY,
  session TEXT NOT NULL,
  uid TEXT,
  fingerprint TEXT NOT NULL,
  role TEXT NOT NULL,
  text TEXT NOT NULL,
  json TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS messages_by_uid ON messages(uid, session);
CREATE INDEX IF NOT EXISTS messages_by_fingerprint ON messages(session, fingerprint);
CREATE TABLE IF NOT EXISTS current_versions (session TEXT NOT NULL, uid TEXT NOT NULL, row INTEGER NOT NULL, PRIMARY KEY (session, uid));
CREATE TABLE IF NOT EXISTS nodes (
  id TEXT PRIMARY KEY,
  session TEXT NOT NULL,
  depth INTEGER NOT NULL,
  summary TEXT NOT NULL,
  token_count INTEGER NOT NULL,
  source_token_count INTEGER NOT NULL,
  message_count INTEGER NOT NULL,
  parent TEXT
);
CREATE TABLE IF NOT EXISTS node_messages (node TEXT NOT NULL, ord INTEGER NOT NULL, message_row INTEGER NOT NULL, PRIMARY KEY (node, ord));
CREATE INDEX IF NOT EXISTS node_messages_by_row ON node_messages(message_row);
CREATE TABLE IF NOT EXISTS node_children (node TEXT NOT NULL, ord INTEGER NOT NULL, child TEXT NOT NULL, PRIMARY KEY (node, ord));
`;

const FTS_SCHEMA = `
CREATE VIRTUAL TABLE IF NOT EXISTS messages_fts USING fts5(text, content='messages', content_rowid='row');
CREATE VIRTUAL TABLE IF NOT EXISTS nodes_fts USING fts5(summary, node UNINDEXED);
`;

interface NodeRow {
  id: string;
  session: string;
  depth: number;
  summary: string;
  token_count: number;
  source_token_count: number;
  message_count: number;
  parent: string | null;
}

/**
 * The lossless store: every version of every message (credentials masked), the summary nodes
 * and their links.
 * Rollback-journal mode (not WAL), so reads never touch the files: a compaction pass that only
 * reads leaves the sandbox byte-identical.
 */
export class LcmStore {
  readonly path: string;
  readonly searchMode: SearchMode;
  readonly #db: Database.Database;
  readonly #statements = new Map<string, Database.Statement>();
  /** "session, uid or occurrence, fingerprint" → row: skips the lookups for messages seen before. */
  readonly #known = new Map<string, number>();
  /** "session, uid" → row of the current version, as last written. */
  readonly #current = new Map<string, number>();
  readonly #memo = new Map<string, unknown>();

  private constructor(path: string, db: Database.Database) {
    this.path = path;
    this.#db = db;
    db.pragma("journal_mode = DELETE");
    db.exec(SCHEMA);
    this.searchMode = tryCreateFts(db) ? "fts5" : "like";
  }

  /** Open (creating) a database file, or ":memory:". */
  static open(path: string): LcmStore {
    return new LcmStore(path, new Database(path));
  }

  /** A private in-memory copy of an in-memory store (a file store is reopened by path instead). */
  copyInMemory(): LcmStore {
    return new LcmStore(":memory:", new Database(this.#db.serialize()));
  }

  get persistent(): boolean {
    return this.path !== ":memory:";
  }

  get open(): boolean {
    return this.#db.open;
  }

  close(): void {
    if (this.#db.open) this.#db.close();
  }

  ensureSession(id: string, parent: string | null): void {
    const known = this.#statement("SELECT parent FROM sessions WHERE id = ?").get(id) as { parent: string | null } | undefined;
    if (!known) this.#statement("INSERT INTO sessions (id, parent) VALUES (?, ?)").run(id, parent);
    else if (parent !== null && known.parent !== parent) this.#statement("UPDATE sessions SET parent = ? WHERE id = ?").run(parent, id);
  }

  hasSession(id: string): boolean {
    return this.#statement("SELECT 1 FROM sessions WHERE id = ?").get(id) !== undefined;
  }

  /** The session and the sessions it continues (rotation, carry-over), nearest first. */
  lineage(id: string): string[] {
    const chain = [id];
    let current: string | null = id;
    while (current !== null && chain.length < 64) {
      const row = this.#statement("SELECT parent FROM sessions WHERE id = ?").get(current) as { parent: string | null } | undefined;
      current = row?.parent ?? null;
      if (current === null || chain.includes(current)) break;
      chain.push(current);
    }
    return chain;
  }

  /** Store the messages of one session; known versions are not stored twice. Returns each message's row. */
  ingest(session: string, messages: readonly Message[]): number[] {
    return this.#write(() => this.#ingestRows(session, messages));
  }

  #ingestRows(session: string, messages: readonly Message[]): number[] {
    const occurrences = new Map<string, number>();
    const rows: number[] = [];
    for (const message of messages) {
      const uid = uidOf(message);
      const print = fingerprint(message);
      // Without a uid, the n-th equal message is the n-th stored row with that fingerprint.
      const occurrence = uid === null ? (occurrences.get(print) ?? 0) : 0;
      if (uid === null) occurrences.set(print, occurrence + 1);
      const slot = uid ?? `#${occurrence}`;
      const key = `${session}\u0000${slot}\u0000${print}`;
      let row = this.#known.get(key);
      if (row === undefined) {
        row =
          uid !== null
            ? (this.#statement("SELECT row FROM messages WHERE session = ? AND uid = ? AND fingerprint = ? ORDER BY row DESC LIMIT 1").get(session, uid, print) as
                | { row: number }
                | undefined)?.row
            : (this.#statement("SELECT row FROM messages WHERE session = ? AND uid IS NULL AND fingerprint = ? ORDER BY row LIMIT 1 OFFSET ?").get(
                session,
                print,
                occurrence,
              ) as { row: number } | undefined)?.row;
        row ??= this.#insertMessage(session, uid, print, message);
        this.#known.set(key, row);
      }
      // The later row under one uid is the current version (UID-7).
      if (uid !== null && this.#current.get(`${session}\u0000${uid}`) !== row) {
        this.#statement(
          "INSERT INTO current_versions (session, uid, row) VALUES (?, ?, ?) ON CONFLICT (session, uid) DO UPDATE SET row = excluded.row WHERE row <> excluded.row",
        ).run(session, uid, row);
        this.#current.set(`${session}\u0000${uid}`, row);
      }
      rows.push(row);
    }
    return rows;
  }

  #insertMessage(session: string, uid: string | null, print: string, message: Message): number {
    const kept = redactMessage(message);
    const text = searchableText(kept);
    const row = Number(
      this.#statement("INSERT INTO messages (session, uid, fingerprint, role, text, json) VALUES (?, ?, ?, ?, ?, ?)").run(
        session,
        uid,
        print,
        String(message.role),
        text,
        JSON.stringify(kept),
      ).lastInsertRowid,
    );
    if (this.searchMode === "fts5") this.#statement("INSERT INTO messages_fts (rowid, text) VALUES (?, ?)").run(row, text);
    this.#changed();
    return row;
  }

  /** Run a write transaction; on failure the caches, which may name rolled-back rows, are dropped. */
  #write<T>(work: () => T): T {
    try {
      return this.#db.transaction(work)();
    } catch (error) {
      this.#known.clear();
      this.#current.clear();
      this.#changed();
      throw error;
    }
  }

  #changed(): void {
    this.#memo.clear();
  }

  #statement(sql: string): Database.Statement {
    let statement = this.#statements.get(sql);
    if (!statement) this.#statements.set(sql, (statement = this.#db.prepare(sql)));
    return statement;
  }

  /** A read whose answer only changes when the store does, computed once per state. */
  memo<T>(key: string, compute: () => T): T {
    if (this.#memo.has(key)) return this.#memo.get(key) as T;
    const value = compute();
    this.#memo.set(key, value);
    return value;
  }

  /** Write a committed pass: its messages, its nodes and their links, in one transaction. */
  publish(session: string, pass: StagedPass): void {
    this.#write(() => {
      this.ensureSession(session, null);
      const rows = this.#ingestRows(session, pass.messages);
      const insertNode = this.#statement(
        "INSERT OR IGNORE INTO nodes (id, session, depth, summary, token_count, source_token_count, message_count, parent) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)",
      );
      const insertNodeFts = this.searchMode === "fts5" ? this.#statement("INSERT INTO nodes_fts (summary, node) VALUES (?, ?)") : null;
      const link = this.#statement("INSERT OR IGNORE INTO node_messages (node, ord, message_row) VALUES (?, ?, ?)");
      const child = this.#statement("INSERT OR IGNORE INTO node_children (node, ord, child) VALUES (?, ?, ?)");
      const setParent = this.#statement("UPDATE nodes SET parent = ? WHERE id = ?");
      for (const node of pass.nodes) {
        const inserted = insertNode.run(node.id, session, node.depth, node.summary, node.tokenCount, node.sourceTokenCount, node.messageCount);
        if (inserted.changes === 0) continue;
        insertNodeFts?.run(node.summary, node.id);
        node.messageIndices.forEach((index, ord) => {
          const row = rows[index];
          if (row !== undefined) link.run(node.id, ord, row);
        });
        node.children.forEach((id, ord) => {
          child.run(node.id, ord, id);
          setParent.run(node.id, id);
        });
      }
      this.#changed();
    });
  }

  /** Sessions holding any of the uids, most matches first (ties: the most recent writer). */
  sessionsOwningUids(uids: readonly string[]): Array<{ session: string; matches: number }> {
    if (uids.length === 0) return [];
    return this.#statement(
      `SELECT session, COUNT(DISTINCT uid) AS matches, MAX(row) AS last FROM messages
       WHERE uid IN (SELECT value FROM json_each(?)) GROUP BY session ORDER BY matches DESC, last DESC`,
    ).all(JSON.stringify(uids)) as Array<{ session: string; matches: number }>;
  }

  sessionOfNode(id: string): string | null {
    const row = this.#statement("SELECT session FROM nodes WHERE id = ?").get(id) as { session: string } | undefined;
    return row?.session ?? null;
  }

  sessionIds(): string[] {
    return (this.#statement("SELECT id FROM sessions ORDER BY id").all() as Array<{ id: string }>).map((r) => r.id);
  }

  getNode(id: string): StoredNode | null {
    const row = this.#statement("SELECT * FROM nodes WHERE id = ?").get(id) as NodeRow | undefined;
    if (!row) return null;
    const children = (this.#statement("SELECT child FROM node_children WHERE node = ? ORDER BY ord").all(id) as Array<{ child: string }>).map(
      (r) => r.child,
    );
    return {
      id: row.id,
      session: row.session,
      depth: row.depth,
      summary: row.summary,
      tokenCount: row.token_count,
      sourceTokenCount: row.source_token_count,
      messageCount: row.message_count,
      parent: row.parent,
      children,
    };
  }

  /** The raw messages under a node, oldest first, descending through condensed nodes. */
  nodeMessages(id: string): Array<{ row: number; uid: string | null; message: Message }> {
    const out: Array<{ row: number; uid: string | null; message: Message }> = [];
    const leafRows = this.#statement(
      "SELECT m.row, m.uid, m.json FROM node_messages nm JOIN messages m ON m.row = nm.message_row WHERE nm.node = ? ORDER BY nm.ord",
    );
    const children = this.#statement("SELECT child FROM node_children WHERE node = ? ORDER BY ord");
    const visit = (node: string, depth: number): void => {
      if (depth > 64) return;
      for (const row of leafRows.all(node) as Array<{ row: number; uid: string | null; json: string }>) {
        out.push({ row: row.row, uid: row.uid, message: JSON.parse(row.json) as Message });
      }
      for (const child of children.all(node) as Array<{ child: string }>) visit(child.child, depth + 1);
    };
    visit(id, 0);
    return out;
  }

  /** The leaf node that covers a stored message, if any. */
  nodeOfMessage(row: number): string | null {
    const hit = this.#statement("SELECT node FROM node_messages WHERE message_row = ? ORDER BY node LIMIT 1").get(row) as { node: string } | undefined;
    return hit?.node ?? null;
  }

  /**
   * Messages of the given sessions that contain the words (all of them when `every`, else any),
   * best match first. Falls back to LIKE on the whole phrase when FTS5 is missing or the query
   * has no words.
   */
  searchMessages(sessions: readonly string[], words: readonly string[], phrase: string, every: boolean, limit: number): MessageHit[] {
    const scope = JSON.stringify(sessions);
    const select = `SELECT m.row, m.session, m.uid, m.role, m.text,
        (m.uid IS NULL OR cv.row = m.row) AS current
      FROM messages m LEFT JOIN current_versions cv ON cv.session = m.session AND cv.uid = m.uid`;
    const match = ftsQuery(words, every);
    if (this.searchMode === "fts5" && match !== null) {
      try {
        const rows = this.#statement(
          `${select} JOIN messages_fts f ON f.rowid = m.row
           WHERE messages_fts MATCH ? AND m.session IN (SELECT value FROM json_each(?))
           ORDER BY f.rank, m.row LIMIT ?`,
        ).all(match, scope, limit) as HitRow[];
        return rows.map((r) => ({ ...r, current: Boolean(r.current) }));
      } catch {
        // An FTS syntax the escaping missed: the LIKE path below still answers.
      }
    }
    const rows = this.#statement(
      `${select} WHERE m.session IN (SELECT value FROM json_each(?)) AND m.text LIKE ? ESCAPE '\\'
       ORDER BY m.row LIMIT ?`,
    ).all(scope, likePattern(phrase), limit) as HitRow[];
    return rows.map((r) => ({ ...r, current: Boolean(r.current) }));
  }

  /** How many messages of the given sessions contain the word (all of them: the total). */
  messageFrequency(sessions: readonly string[], word: string | null): number {
    const scope = JSON.stringify(sessions);
    if (word === null) {
      return (this.#statement("SELECT COUNT(*) AS n FROM messages WHERE session IN (SELECT value FROM json_each(?))").get(scope) as { n: number }).n;
    }
    const match = ftsQuery([word], true);
    if (this.searchMode === "fts5" && match !== null) {
      try {
        return (
          this.#statement(
            `SELECT COUNT(*) AS n FROM messages_fts f JOIN messages m ON m.row = f.rowid
             WHERE messages_fts MATCH ? AND m.session IN (SELECT value FROM json_each(?))`,
          ).get(match, scope) as { n: number }
        ).n;
      } catch {
        // Fall through to LIKE.
      }
    }
    return (
      this.#statement("SELECT COUNT(*) AS n FROM messages WHERE session IN (SELECT value FROM json_each(?)) AND text LIKE ? ESCAPE '\\'").get(
        scope,
        likePattern(word),
      ) as { n: number }
    ).n;
  }

  /** Summaries of the given sessions that contain the words; same fallback as messages. */
  searchSummaries(sessions: readonly string[], words: readonly string[], phrase: string, limit: number): SummaryHit[] {
    const scope = JSON.stringify(sessions);
    const match = ftsQuery(words, true);
    if (this.searchMode === "fts5" && match !== null) {
      try {
        return this.#statement(
          `SELECT n.id AS node, n.depth, n.summary FROM nodes_fts f JOIN nodes n ON n.id = f.node
           WHERE nodes_fts MATCH ? AND n.session IN (SELECT value FROM json_each(?)) ORDER BY f.rank, n.id LIMIT ?`,
        ).all(match, scope, limit) as SummaryHit[];
      } catch {
        // Fall through to LIKE.
      }
    }
    return this.#statement(
      `SELECT id AS node, depth, summary FROM nodes WHERE session IN (SELECT value FROM json_each(?))
       AND summary LIKE ? ESCAPE '\\' ORDER BY depth DESC, id LIMIT ?`,
    ).all(scope, likePattern(phrase), limit) as SummaryHit[];
  }
}

function tryCreateFts(db: Database.Database): boolean {
  try {
    db.exec(FTS_SCHEMA);
    return true;
  } catch {
    return false;
  }
}

/** Each word quoted (FTS5 string syntax), joined by AND or OR; null when there is no word. */
function ftsQuery(words: readonly string[], every: boolean): string | null {
  const quoted = words.filter((w) => w.length > 0).map((w) => `"${w.replaceAll('"', '""')}"`);
  return quoted.length === 0 ? null : quoted.join(every ? " AND " : " OR ");
}

function likePattern(phrase: string): string {
  return `%${phrase.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
