import type { Message, MessageContent, ToolCall } from "../contract/types.ts";
import type { SettleProgress } from "./archive-marks.ts";
import type { BackfillProgress } from "./backfill.ts";
import type { UidMinter } from "./uid.ts";

export interface SessionStoreOptions {
  /** Mints message and tool-call uids; pass a seeded minter (createSeededMinter) for byte-identical runs. */
  mintUid?: UidMinter;
  /** Timestamps written on new rows, in seconds (default: wall clock). Inject for deterministic runs. */
  now?: () => number;
  /** Row ids per backfill slice (default 2000). */
  backfillChunk?: number;
  /** Time one open may spend backfilling, in ms (default 1000); at least one slice always runs. */
  backfillBudgetMs?: number;
  /** Monotonic milliseconds used for the backfill budget and slice timings. */
  monotonicClock?: () => number;
  /** Observes every committed backfill slice. */
  onBackfillSlice?: (doneThroughId: number) => void;
  /** How long a writer waits for another connection's lock (default 5000 ms). */
  busyTimeoutMs?: number;
  /** Rows per slice when archive marks are written into the stored flags (default 2000). */
  settleChunk?: number;
  /** Time one open may spend settling marks a crashed process left, in ms (default 1000); at least one slice runs. */
  settleBudgetMs?: number;
  /**
   * Settle every archive mark when the store closes (default: true for a file, false for
   * `:memory:`). Turn it off only for a scratch store no other build will read.
   */
  settleOnClose?: boolean;
  /**
   * Whether a committed write must survive a crash of the machine (default true). False turns
   * off SQLite's syncs (`synchronous = OFF`): for a scratch store thrown away after its run, where
   * durability is not what anything judges.
   */
  durable?: boolean;
  /**
   * This connection holds the file alone while it is open (default false): SQLite's exclusive
   * locking mode with the rollback journal in memory, so a transaction takes no file locks and
   * writes each page once (no WAL frames, no checkpoint copying them back). Another connection can
   * open the file only inside `shareFileWhile()`. For a scratch store that one process plays
   * through; together with `durable: false` a small append costs about half of WAL's.
   */
  exclusive?: boolean;
}

export interface StoreOpenReport {
  /** The store had no version row: it was created by this open and needs no backfill. */
  fresh: boolean;
  /** The version found before this open (null for a fresh store). */
  previousVersion: number | null;
  /** Time spent bringing the layout to v31 (one write transaction when anything was missing). */
  layoutMs: number;
  backfill: BackfillProgress;
  /** Archive marks a crashed process left, written into the stored flags by this open. */
  settle: SettleProgress;
}

export interface RestoreOptions {
  /** Add `_row_id` to each restored message. */
  includeRowIds?: boolean;
  /** Merge consecutive same-role messages while restoring, recording the merge witness. */
  repairAlternation?: boolean;
}

export interface SessionRecord {
  id: string;
  source: string | null;
  parent_session_id: string | null;
  system_prompt: string | null;
  started_at: number;
  ended_at: number | null;
  end_reason: string | null;
}

export interface RewindOutcome {
  /** The conversation after the rewind; its last message carries the replacement's uid. */
  prefix: Message[];
  replacementMessageUid: string | null;
  replacementRowId: number | null;
  archivedRows: number;
}

/** One message of an export: the row's columns, identity JSON exactly as stored. */
export interface ExportedMessage {
  role: string;
  content: MessageContent;
  tool_call_id: string | null;
  tool_calls: ToolCall[] | null;
  tool_name: string | null;
  timestamp: number;
  token_count: number | null;
  finish_reason: string | null;
  reasoning: string | null;
  display_kind: string | null;
  display_metadata: unknown;
  active: boolean;
  compacted: boolean;
  message_uid: string | null;
  absorbed_message_uids: string | null;
  tool_call_uids: string | null;
  tool_call_uid: string | null;
}

export interface SessionExport {
  format: "ctxbench-session";
  version: 1;
  session: SessionRecord;
  messages: ExportedMessage[];
}
