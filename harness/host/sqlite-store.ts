import type { Message } from "../contract/types.ts";
import { OlderBuildWriter, SessionStore, writeLegacyStore, type SessionStoreOptions, type UidMinter } from "../store/index.ts";
import type { LegacyStore } from "../../scenarios/format.ts";
import { cloneMessages } from "./clone.ts";
import type { HostStore } from "./store-port.ts";
import { UsageError } from "../util/errors.ts";

/** A scenario step that cannot apply to the state this play reached (exit 2: the scenario's, not ctxbench's). */
export class ScenarioPlayError extends UsageError {}

export interface SqliteHostStoreOptions {
  path: string;
  mintUid: UidMinter;
  /** Row timestamps in seconds; the host passes its simulated clock. */
  now: () => number;
  /**
   * The store is thrown away when the play ends (a certification's): no syncs to disk, the file
   * held by this connection alone (an older build's writes share it for their moment), and no
   * settling of archive marks into the stored flags at close. Reads within the play, reopens
   * included, see exactly what a durable store shows.
   */
  scratch?: boolean;
}

/** The host's view of the SQLite session store (harness/store). */
export class SqliteHostStore implements HostStore {
  readonly path: string;
  readonly #options: SessionStoreOptions;
  #store: SessionStore;

  private constructor(path: string, options: SessionStoreOptions) {
    this.path = path;
    this.#options = options;
    this.#store = SessionStore.open(path, options);
  }

  /**
   * Open the store; a legacy scenario first gets a v30 store written by an older build, then is
   * reopened `opens` times so the v31 backfill advances in bounded slices (UID-8).
   */
  static open(options: SqliteHostStoreOptions, legacy?: LegacyStore): SqliteHostStore {
    const storeOptions: SessionStoreOptions = { mintUid: options.mintUid, now: options.now, ...(options.scratch === true ? { durable: false, settleOnClose: false, exclusive: true } : {}) };
    if (legacy !== undefined) {
      writeLegacyStore(
        options.path,
        legacy.sessions.map((session) => ({ id: session.id, messages: cloneMessages(session.messages) })),
        { now: options.now },
      );
      storeOptions.backfillChunk = legacy.backfillChunk;
      storeOptions.backfillBudgetMs = legacy.backfillBudgetMs;
      for (let open = 1; open < legacy.opens; open++) SessionStore.open(options.path, storeOptions).close();
    }
    return new SqliteHostStore(options.path, storeOptions);
  }

  get sessionStore(): SessionStore {
    return this.#store;
  }

  append(session: string, messages: Message[]): void {
    this.#store.appendMessages(session, messages);
  }

  restore(session: string, options: { repairAlternation?: boolean } = {}): Message[] {
    return this.#store.getMessages(session, options.repairAlternation === true ? { repairAlternation: true } : {});
  }

  compactInPlace(session: string, messages: Message[]): Message[] {
    return this.#store.compactInPlace(session, messages, this.#store.watermark(session));
  }

  rotate(parent: string, child: string, messages: Message[]): Message[] {
    return this.#store.rotate(parent, child, messages);
  }

  /** Rewind to the first `keepMessages` rows: by user turns when the cut falls on a user message, else by archiving the tail. */
  rewind(session: string, keepMessages: number): void {
    const history = this.restore(session);
    if (keepMessages >= history.length) return;
    const keep = Math.max(0, keepMessages);
    if (history[keep]?.role === "user" && keep > 0) {
      const turns = history.slice(keep).filter((message) => message.role === "user").length;
      this.#store.rewind(session, { turns });
      return;
    }
    this.#store.replaceMessages(session, history.slice(0, keep), { archiveDropped: true });
  }

  branch(from: string, to: string): void {
    this.#store.branch(from, to, this.restore(from));
  }

  exportImport(from: string, to: string): void {
    const exported = JSON.parse(JSON.stringify(this.#store.exportSession(from))) as ReturnType<SessionStore["exportSession"]>;
    exported.session = { ...exported.session, id: to, parent_session_id: from };
    this.#store.importSessions([exported]);
  }

  legacyWrite(session: string, messages: Message[]): void {
    // The v31 trigger mints these rows' uids in SQL; the seeded minter keeps them reproducible.
    this.#store.shareFileWhile(() => {
      const writer = OlderBuildWriter.open(this.path, {
        ...(this.#options.now === undefined ? {} : { now: this.#options.now }),
        ...(this.#options.mintUid === undefined ? {} : { mintUid: this.#options.mintUid }),
      });
      try {
        writer.append(session, cloneMessages(messages));
      } finally {
        writer.close();
      }
    });
  }

  rewriteContent(session: string, index: number, content: string): void {
    this.#store.rewriteContent(session, this.#uidAt(session, index), content);
  }

  duplicateRow(session: string, index: number, content: string): void {
    this.#store.appendEditedCopy(session, this.#uidAt(session, index), content);
  }

  reopen(): void {
    this.#store.close();
    this.#store = SessionStore.open(this.path, this.#options);
  }

  close(): void {
    this.#store.close();
  }

  #uidAt(session: string, index: number): string {
    const message = this.restore(session)[index];
    // The scenario passed validation, so only what this play did (compactions) can make it miss.
    if (message === undefined) {
      throw new ScenarioPlayError(`the scenario's event names message ${index} of session "${session}", which holds ${this.restore(session).length} message(s) at that point of this play`);
    }
    if (typeof message.message_uid !== "string") throw new ScenarioPlayError(`the scenario's event names message ${index} of session "${session}", which has no uid yet`);
    return message.message_uid;
  }
}
