import type { Message } from "../contract/types.ts";
import type { CompactionTrigger } from "../trace/events.ts";
import type { TraceRecorder } from "../trace/recorder.ts";

/** One compaction pass as observers see it; `pass` is also written on the pass's compaction event. */
export interface ObservedPass {
  pass: number;
  session: string;
  trigger: CompactionTrigger;
  /** The engine's sandbox directory (the `home` of on_session_start). */
  home: string;
  recorder: TraceRecorder;
}

/**
 * The host's observer seam in a compaction pass: recorders that need to look at the world around
 * a pass (e.g. THR-4's sandbox watch) write their own trace events from here, during the play.
 * Nothing replaces engine methods and nothing rewrites a trace afterwards. Every method is
 * optional and synchronous; an observer that throws costs a warning in the trace, not the run.
 */
export interface CompactionObserver {
  /** Before the host takes the pass's snapshot and calls compress(). */
  passStarted?(pass: ObservedPass): void;
  /** The private deep snapshot the engine is about to get. */
  snapshotTaken?(pass: ObservedPass, snapshot: readonly Message[]): void;
  /** The host timed the pass out: the signal is aborted and whatever it returns will be dropped. */
  passDiscarded?(pass: ObservedPass): void;
  /**
   * The engine's work for the pass is over: its answer came back (`settled`), or, for a discarded
   * pass, the host's grace period ran out first (`settled` false).
   */
  passSettled?(pass: ObservedPass, outcome: { settled: boolean; discarded: boolean }): void;
}

type ObserverMethod = "passStarted" | "snapshotTaken" | "passDiscarded" | "passSettled";

/** Call one method on every observer; a throw is recorded as a warning and the pass goes on. */
export function notifyObservers<M extends ObserverMethod>(
  observers: readonly CompactionObserver[],
  method: M,
  ...args: Parameters<NonNullable<CompactionObserver[M]>>
): void {
  for (const observer of observers) {
    const handler = observer[method] as ((...a: unknown[]) => void) | undefined;
    if (handler === undefined) continue;
    try {
      handler.apply(observer, args);
    } catch (error) {
      const pass = args[0] as ObservedPass;
      pass.recorder.record({ type: "warning", session: pass.session, message: `a host observer failed at ${method}: ${error instanceof Error ? error.message : String(error)}`, rule: null });
    }
  }
}
