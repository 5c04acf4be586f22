import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Message } from "../../harness/contract/types.ts";
import { carriedNodeIds } from "./carrier.ts";
import { LcmStore } from "./store.ts";
import { uidOf } from "./text.ts";

/** The session id of messages no hint ties to a session: they stay in the in-memory store. */
export const UNSCOPED = "";

export interface SessionHints {
  /** An explicit id, when the host passes one in the options. */
  sessionId?: unknown;
  /** on_turn_complete's turn_id, "<session_id>:<task_id>:<hex>" upstream. */
  turnId?: unknown;
  /** Messages whose uids (or carried nodes) name their session. */
  messages?: readonly Message[] | null;
}

export interface ResolvedSession {
  id: string;
  store: LcmStore;
}

export interface StoreDescription {
  path: string;
  persistent: boolean;
  note: string | null;
}

/**
 * Which store each session uses, and which session a call belongs to. The contract passes no
 * session id to compress, select_context, on_turn_complete or handle_tool_call, so the session
 * is read from the call itself: an explicit hint, the turn id, then the uids and carried nodes of
 * its messages. Nothing is remembered about "the current session" (THR-1).
 */
export class SessionRegistry {
  readonly #dbPath: string | null;
  readonly #stores = new Map<string, LcmStore>();
  readonly #sessions = new Map<string, LcmStore>();

  constructor(dbPath: string | null) {
    this.#dbPath = dbPath;
  }

  /** Bind a session to its store, `<home>/lcm/lcm.sqlite` unless a dbPath was configured. */
  start(session: string, home: string | null, parent: string | null): LcmStore {
    const path = this.#dbPath ?? (home !== null ? join(home, "lcm", "lcm.sqlite") : null);
    const store = path !== null ? this.#open(path) : (this.#sessions.get(session) ?? (parent !== null ? this.#sessions.get(parent) : undefined) ?? this.memory());
    store.ensureSession(session, parent !== null && parent !== session ? parent : null);
    this.#sessions.set(session, store);
    return store;
  }

  /** The store of sessions that started without a sandbox, and of calls tied to no session. */
  memory(): LcmStore {
    return this.#open(":memory:");
  }

  storeOf(session: string): LcmStore | null {
    return this.#sessions.get(session) ?? null;
  }

  resolve(hints: SessionHints): ResolvedSession | null {
    const explicit = typeof hints.sessionId === "string" ? this.#known(hints.sessionId) : null;
    if (explicit) return explicit;
    if (typeof hints.turnId === "string" && hints.turnId.includes(":")) {
      const fromTurn = this.#known(hints.turnId.slice(0, hints.turnId.indexOf(":")));
      if (fromTurn) return fromTurn;
    }
    const fromMessages = hints.messages ? this.#byMessages(hints.messages) : null;
    if (fromMessages) return fromMessages;
    if (this.#sessions.size === 1) {
      const [id, store] = [...this.#sessions][0] as [string, LcmStore];
      return { id, store };
    }
    return null;
  }

  /** Sessions whose data a session may see: itself and the sessions it continues. */
  scope(session: ResolvedSession): string[] {
    return session.store.lineage(session.id);
  }

  describe(): StoreDescription {
    const files = [...this.#stores.values()].filter((s) => s.persistent);
    if (files.length > 0) return { path: files.map((s) => s.path).join(", "), persistent: true, note: null };
    return {
      path: ":memory:",
      persistent: false,
      note: "no session has started with a sandbox directory yet: the lcm store is in memory and is lost when the engine closes",
    };
  }

  /** A registry with its own connections: files reopened by path, the in-memory store copied. */
  clone(): SessionRegistry {
    const copy = new SessionRegistry(this.#dbPath);
    for (const [path, store] of this.#stores) {
      if (store.open) copy.#stores.set(path, store.persistent ? LcmStore.open(path) : store.copyInMemory());
    }
    for (const [session, store] of this.#sessions) {
      const reopened = copy.#stores.get(store.path);
      if (reopened) copy.#sessions.set(session, reopened);
    }
    return copy;
  }

  close(): void {
    for (const store of this.#stores.values()) store.close();
    this.#stores.clear();
    this.#sessions.clear();
  }

  #open(path: string): LcmStore {
    const known = this.#stores.get(path);
    if (known?.open) return known;
    if (path !== ":memory:") mkdirSync(join(path, ".."), { recursive: true });
    const store = LcmStore.open(path);
    this.#stores.set(path, store);
    return store;
  }

  #known(session: string): ResolvedSession | null {
    const store = this.#sessions.get(session);
    return store ? { id: session, store } : null;
  }

  /**
   * The owner of the newest node the messages carry (after a rotation, the child's own nodes come
   * last); else the session owning most of their uids.
   */
  #byMessages(messages: readonly Message[]): ResolvedSession | null {
    const stores = [...new Set(this.#sessions.values())];
    for (const node of carriedNodeIds(messages).reverse()) {
      for (const store of stores) {
        const owner = store.sessionOfNode(node);
        if (owner !== null && this.#sessions.get(owner) === store) return this.#known(owner);
      }
    }
    const uids = [...new Set(messages.map(uidOf).filter((u): u is string => u !== null))];
    let best: { session: string; matches: number } | undefined;
    for (const store of stores) {
      const top = store.sessionsOwningUids(uids).find((c) => this.#sessions.get(c.session) === store);
      if (top && (best === undefined || top.matches > best.matches)) best = top;
    }
    return best ? this.#known(best.session) : null;
  }
}
