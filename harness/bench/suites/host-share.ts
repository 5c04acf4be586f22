import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Message } from "../../contract/types.ts";
import { cloneMessages, cloneValue } from "../../host/clone.ts";
import { historyCopies, judgeOutput } from "../../host/compaction.ts";
import { historyTokensRough } from "../../host/history-tokens.ts";
import { SessionStore } from "../../store/session-store.ts";
import { collectGarbage } from "../collect-garbage.ts";
import { mad, median } from "../stats.ts";

/** The host's work around one compaction pass, part by part (medians of the runs, ms). */
export interface HostShare {
  /** The history's estimate and the pass's two copies of it: the engine's snapshot and the trace's input. */
  snapshotMs: number;
  /** Judging the output (invalid, empty, unchanged, grown) and the trace's copy of it. */
  judgeMs: number;
  /** The store's copy of the output, committing it in place and restoring the new history. */
  commitMs: number;
  totalMs: number;
  /** MAD of the totals over their median: how far apart the runs were. */
  relativeSpread: number;
  /** Every run's total, in order. */
  totalsMs: number[];
}

export const DEFAULT_HOST_SHARE_RUNS = 5;

/**
 * Times what the reference host adds to one pass over `transcript`, as runCompactionPass does it:
 * the history's estimate, the engine's snapshot and the trace's copy of the input; judging the
 * output `compress` makes of the snapshot (the engine's own work is not timed) and the trace's
 * copy of it; the store's copy, the commit in place into a file-backed store (archiving every
 * earlier row, watermark read included) and the restore. Each run commits into a fresh session of
 * one store; its history is the persisted list the store stamped, and its estimate was taken once
 * before, as the turn's preflight takes it. Garbage is collected before each timed run, so no run
 * pays for the setup's.
 */
export function measureHostShare(
  transcript: readonly Message[],
  compress: (snapshot: Message[]) => Message[],
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
      options.beforeRun?.();
      collectGarbage();
      const started = performance.now();
      const tokensBefore = historyTokensRough(history);
      const { snapshot, traceInput } = historyCopies(history);
      const snapshotDone = performance.now();
      const output = compress(snapshot);
      const engineDone = performance.now();
      const verdict = judgeOutput(output, history, tokensBefore);
      const outputForTrace = cloneValue(output) as Message[];
      const judged = performance.now();
      if (verdict.outcome !== "committed") throw new Error(`the pass output was refused (${verdict.outcome})`);
      const rows = cloneMessages(output);
      store.compactInPlace(sessionId, rows, store.watermark(sessionId));
      const committed = performance.now();
      if (snapshot.length !== transcript.length || traceInput.length !== transcript.length) throw new Error("a copy of the history lost messages");
      if (outputForTrace.length !== output.length) throw new Error("the trace's copy of the output lost messages");
      parts.snapshot.push(snapshotDone - started);
      parts.judge.push(judged - engineDone);
      parts.commit.push(committed - judged);
      parts.total.push(snapshotDone - started + (committed - engineDone));
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
