import type { Message } from "../contract/types.ts";

/**
 * What the host needs from the session store. The SQLite store (harness/store) implements it
 * through `openHostStore`; every method is synchronous, so a store operation is atomic with
 * respect to the other sessions' lanes.
 */
export interface HostStore {
  /** Persist new rows at the end of the session; uids are minted onto the given objects. */
  append(session: string, messages: Message[]): void;
  /**
   * The restored active history (identity fields included). `repairAlternation` merges
   * consecutive same-role messages as a real restore does, recording the merge witness (UID-5).
   */
  restore(session: string, options?: { repairAlternation?: boolean }): Message[];
  /** Replace the active rows with a compacted list, same session id; engine-set uids kept (UID-6). Returns the restored history. */
  compactInPlace(session: string, messages: Message[]): Message[];
  /** Publish a compacted list as a child session (rotation); engine-set uids kept (UID-6). Returns the child's restored history. */
  rotate(parent: string, child: string, messages: Message[]): Message[];
  rewind(session: string, keepMessages: number): void;
  branch(from: string, to: string): void;
  /** Export to JSON text and import it under a new id. */
  exportImport(from: string, to: string): void;
  /** An older build (no identity columns) appends rows. */
  legacyWrite(session: string, messages: Message[]): void;
  /** Rewrite the content of the active row at `index` under its uid. */
  rewriteContent(session: string, index: number, content: string): void;
  /** Re-append an edited copy of the active row at `index` next to it (two rows, one uid). */
  duplicateRow(session: string, index: number, content: string): void;
  /** Close and reopen the database file. */
  reopen(): void;
  close(): void;
}
