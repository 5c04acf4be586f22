import "vitest";

/**
 * What a fault-suite test records about the fault it tried (on its task's meta), so that
 * `npx tsx test/faults/figures.ts` can report the suite's figures from a real run: nothing in
 * the README's fault table is typed by hand.
 */
export interface FaultFigure {
  /** The suite the fault belongs to (one row of the figures table). */
  suite: string;
  /** What was observed, e.g. "exit 2", "not certified (exit 1)", "no row lost". */
  outcome: string;
  /** How long the fault took to be contained, when the suite bounds it. */
  seconds?: number;
  /** The bound it had to meet, in seconds. */
  boundSeconds?: number;
  /** Processes killed with SIGKILL in the middle of their work. */
  kills?: number;
  /** Committed rows missing afterwards (must be 0). */
  rowsLost?: number;
}

declare module "vitest" {
  interface TaskMeta {
    fault?: FaultFigure;
    /** A test that tries several faults (one engine through several commands) records each. */
    faults?: FaultFigure[];
  }
}
