/**
 * The session store: SQLite persistence with stable message identity (schema v31).
 *
 * Host-facing operations on SessionStore (names the reference host calls):
 *   SessionStore.open(path, options)           open / create / upgrade (a store of any upstream version from v1: columns reconciled, then the v31 backfill in slices)
 *   createSession(id, { parentId, source, systemPrompt })
 *   appendMessages(sessionId, messages)        atomic batch; uids stamped on the caller's objects
 *   flush(sessionId, live, fromIndex)          append a live list's unflushed tail (pairs results via the live list)
 *   getMessages(sessionId, { includeRowIds, repairAlternation })   the restore
 *   compactInPlace(sessionId, compacted, watermark)  (watermark: store.watermark(sessionId) at snapshot time)
 *   rotate(parentId, childId, compacted, { watermark, watermarkCeiling })
 *   replaceMessages(sessionId, messages, { archiveDropped })
 *   rewind(sessionId, { turns, warmHistory })
 *   branch(parentId, childId, history)
 *   exportSession(sessionId) / importSessions(payloads, { chunkRows }) / importForeignHistory(...)
 *   rewriteMessage(sessionId, messageWithRowId)  row-addressed rewrite
 *   rewriteContent(sessionId, uid, content)    content rewrite of one row under its uid
 *   appendEditedCopy(sessionId, uid, content)  re-append an edited copy (duplicate uid)
 *   close()
 * Older build: OlderBuildWriter.open(path).append(sessionId, messages), writeLegacyStore(path, sessions).
 */
export { SessionStore } from "./session-store.ts";
export { OlderBuildWriter, writeLegacyStore } from "./older-build-writer.ts";
export { StoreInputError, StoreOpenError } from "./errors.ts";
export { createRandomMinter, createSeededMinter, stampMessageUid, uidOrNull, UID_PATTERN, type UidMinter } from "./uid.ts";
export { recordAbsorbedMessage } from "./witness.ts";
export {
  canMergeUsers,
  mergeAdjacentUserTurns,
  mergeAnchorIntoUserMessage,
  mergeAssistantInto,
  mergeUserInto,
  repairAlternation,
  restateInflightTask,
  VERIFICATION_FINISH_REASONS,
} from "./merges.ts";
export {
  foldToolCallUids,
  indexToolCallUids,
  resolveToolCallUid,
  stampToolCallUids,
  toolCallUidFromHistory,
  type ToolCallUidIndex,
} from "./tool-call-uids.ts";
export { encodeToolCallUids, encodeUidList } from "./identity-json.ts";
export { DEFAULT_BACKFILL_BUDGET_MS, DEFAULT_BACKFILL_CHUNK, type BackfillProgress } from "./backfill.ts";
export { LEGACY_SCHEMA_VERSION, SCHEMA_VERSION } from "./schema.ts";
export type { MessageRow } from "./rows.ts";
export type {
  ExportedMessage,
  RestoreOptions,
  RewindOutcome,
  SessionExport,
  SessionRecord,
  SessionStoreOptions,
  StoreOpenReport,
} from "./types.ts";
