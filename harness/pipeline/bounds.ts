import { availableParallelism } from "node:os";
import { DEFAULT_LIMITS, type ChannelLimits } from "../player/protocol.ts";
import { DEFAULT_RUN_TIMEOUT_MS } from "../util/run-timeout.ts";
import type { RunBounds } from "../result/index.ts";

/** The bounds of one run, all enforced by the parent. */
export interface Bounds {
  /** One scenario or probe (`--timeout`), ms. */
  timeoutMs: number;
  /** The whole run (`--max-time`), ms. */
  maxTimeMs: number;
  /** Loading the engine in a player, up to `ready`, ms. */
  loadTimeoutMs: number;
  /** Players run side by side (default: the cores). */
  players: number;
  /** One bench suite for one engine, ms. */
  suiteTimeoutMs: number;
  /** Heap limit of a player, MB. */
  heapMb: number;
  limits: ChannelLimits;
}

export const DEFAULT_MAX_TIME_MS = 300_000;
export const DEFAULT_LOAD_TIMEOUT_MS = 30_000;
export const DEFAULT_HEAP_MB = 2048;
/** A suite takes well under a minute for any bundled engine; one that runs this long is stalled. */
export const DEFAULT_SUITE_TIMEOUT_MS = 120_000;

export function defaultBounds(overrides: Partial<Bounds> = {}): Bounds {
  return {
    timeoutMs: DEFAULT_RUN_TIMEOUT_MS,
    maxTimeMs: DEFAULT_MAX_TIME_MS,
    loadTimeoutMs: DEFAULT_LOAD_TIMEOUT_MS,
    players: Math.max(1, availableParallelism()),
    suiteTimeoutMs: DEFAULT_SUITE_TIMEOUT_MS,
    heapMb: DEFAULT_HEAP_MB,
    limits: DEFAULT_LIMITS,
    ...overrides,
  };
}

/** The bounds a result records: the ones that applied to what the command ran (runs, suites, or both). */
export function appliedBounds(bounds: Bounds, applied: { runs: boolean; suites: boolean }): RunBounds {
  return {
    maxTimeMs: bounds.maxTimeMs,
    ...(applied.runs ? { timeoutMs: bounds.timeoutMs } : {}),
    loadTimeoutMs: bounds.loadTimeoutMs,
    ...(applied.suites ? { suiteTimeoutMs: bounds.suiteTimeoutMs } : {}),
  };
}
