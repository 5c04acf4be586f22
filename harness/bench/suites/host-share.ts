import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Message } from "../../contract/types.ts";
import { cloneMessages } from "../../host/clone.ts";
import { judgeOutput } from "../../host/compaction.ts";
import { historyTokensRough } from "../../host/history-tokens.ts";
import { SessionStore } from "../../store/session-store.ts";
import { mad, median } from "../stats.ts";

/** The host's work around one compaction pass, part by part (medians of the runs, ms). */
export interface HostShare {
  /** The history's estimate and the deep snapshot the engine works on. */
  snapshotMs: number;
  /** Judging the output (invalid, empty, unchanged, grown). */
  judgeMs: number;
  /** Committing in place through the store, and restoring the new history. */
  commitMs: number;
  totalMs: number;
  /** MAD of the totals over their median: how far apart the runs were. */
  relativeSpread: number;
  /** Every run's total, in order. */
  totalsMs: number[];
}

export const DEFAULT_HOST_SHARE_RUNS = 5;

/**
 * Times what the reference host adds to one pass over `transcript` whose engine answered `output`,
 * as the host does it: the history's estimate, the snapshot, judging the output, the commit in
 * place into a file-backed store (archiving every earlier row) and the restore. Each run commits
 * into a fresh session of one store; its history is the persisted list the store stamped, and its
 * estimate was taken once before, as the turn's preflight takes it.
 */
export function measureHostShare(
  transcript: readonly Message[],
  output: readonly Message[],
  options: { runs?: number; dir?: string; beforeRun?: () => void } = {},
): HostShare {
  const runs = options.runs ?? DEFAULT_HOST_SHARE_RUNS;
  const scratch = mkdtempSync(join(options.dir ?? tmpdir(), "ctxbench-host-share-"));
  const parts = { snapshot: [] as number[], judge: [] as number[], commit: [] as number[], total: [] as number[] };
  // The store is a scratch file deleted below: no other build reads it, so closing need not settle its marks.
  const store = SessionStore.open(join(scratch, "sessions.db"), { settleOnClose: false });
  try {
    for (let run = 0; run < runs; run++) {
      const sessionId = `share-${run}`;
      const history = cloneMessages(transcript);
      store.appendMessages(sessionId, history);
      historyTokensRough(history);
      const watermark = store.watermark(sessionId);
      const candidate = cloneMessages(output);
      options.beforeRun?.();
      const started = performance.now();
      const tokensBefore = historyTokensRough(history);
      const snapshot = cloneMessages(history);
      const snapshotDone = performance.now();
      const verdict = judgeOutput(candidate, history, tokensBefore);
      const judged = performance.now();
      if (verdict.outcome !== "committed") throw new Error(`the pass output was refused (${verdict.outcome})`);
      store.compactInPlace(sessionId, candidate, watermark);
      const committed = performance.now();
      if (snapshot.length !== transcript.length) throw new Error("the snapshot lost messages");
      parts.snapshot.push(snapshotDone - started);
      parts.judge.push(judged - snapshotDone);
      parts.commit.push(committed - judged);
      parts.total.push(committed - started);
    }
  } finally {
    store.close();
    rmSync(scratch, { recursive: true, force: true });
  }
  const totalMs = median(parts.total);
  return {
    snapshotMs: median(parts.snapshot),
    judgeMs: median(parts.judge),
    commitMs: median(parts.commit),
    totalMs,
    relativeSpread: totalMs > 0 ? mad(parts.total) / totalMs : 0,
    totalsMs: parts.total,
  };
}
