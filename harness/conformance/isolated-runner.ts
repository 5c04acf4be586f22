import type { ChildProcess } from "node:child_process";
import type { Check, EvaluatedCheck, Outcome } from "./types.ts";

/** One line a check worker writes on stdout. */
export type WorkerEvent = { event: "source"; source: string } | { event: "result"; result: EvaluatedCheck } | { event: "done" };

/**
 * Marks a worker's event lines: the engine shares the worker's stdout, and whatever else it
 * prints there is passed on as the engine's output, never parsed.
 */
export const WORKER_EVENT_PREFIX = "\u0000ctxbench-event ";

export const workerEventLine = (event: WorkerEvent): string => `${WORKER_EVENT_PREFIX}${JSON.stringify(event)}\n`;

/** Sources a worker must not play, with the outcome their checks get instead. */
export type SettledSources = Array<[string, { outcome: Extract<Outcome, "error" | "timeout">; message: string }]>;

export interface IsolatedRunOptions {
  /** The limit of one scenario or probe run the worker applies itself (ms). */
  timeoutMs: number;
  /** How long past that limit a silent worker is given before it is stopped (default 5 s: its start-up and a check's evaluation fit easily). */
  stallGraceMs?: number;
  /** Starts a worker for these checks; its stdout carries WorkerEvent lines. */
  spawnWorker: (checkIds: string[], settled: SettledSources) => ChildProcess;
  onResult?: (result: EvaluatedCheck) => void;
  /** The worker's stderr, and anything on its stdout that is not an event (the engine's own prints). */
  onWorkerOutput?: (text: string) => void;
}

type WorkerEnd = { kind: "done" } | { kind: "stalled"; lastSource: string | null } | { kind: "exited"; lastSource: string | null; exit: string; stderrTail: string };

const DEFAULT_STALL_GRACE_MS = 5_000;
const STDERR_TAIL_CHARS = 2000;

/**
 * Runs checks in worker processes. A worker that goes silent past the run limit is stuck in code
 * that never yields (the in-process deadline cannot fire then), and one that exits early has
 * crashed; either way the source it was playing is settled as a timeout or an error for every
 * check that reads it, and a fresh worker carries on with the checks not yet done.
 */
export async function runChecksIsolated(checks: readonly Check[], options: IsolatedRunOptions): Promise<EvaluatedCheck[]> {
  const results = new Map<string, EvaluatedCheck>();
  const settled = new Map<string, SettledSources[number][1]>();
  const limitMs = options.timeoutMs + (options.stallGraceMs ?? DEFAULT_STALL_GRACE_MS);
  for (;;) {
    const remaining = checks.filter((check) => !results.has(check.id));
    if (remaining.length === 0) break;
    const end = await runWorker(remaining, [...settled], limitMs, options, (result) => {
      results.set(result.id, result);
      options.onResult?.(result);
    });
    if (end.kind === "done") {
      const missing = checks.filter((check) => !results.has(check.id)).map((check) => check.id);
      if (missing.length > 0) throw new Error(`the check worker finished without results for ${missing.join(", ")}`);
      break;
    }
    const source = end.lastSource;
    if (source === null || settled.has(source)) {
      const what = end.kind === "stalled" ? `stopped responding for ${limitMs} ms` : `exited (${end.exit})`;
      throw new Error(`the check worker ${what} before it started a new scenario or probe${end.kind === "exited" && end.stderrTail ? `:\n${end.stderrTail}` : ""}`);
    }
    settled.set(
      source,
      end.kind === "stalled"
        ? {
            outcome: "timeout",
            message: `${source} did not return control within ${limitMs} ms: the engine blocked the event loop (a synchronous loop?), so ctxbench stopped the worker process running it and went on without it`,
          }
        : { outcome: "error", message: `${source}: the worker process running it exited (${end.exit})${end.stderrTail ? `; its last output:\n${end.stderrTail}` : ""}` },
    );
  }
  return checks.map((check) => results.get(check.id) as EvaluatedCheck);
}

function runWorker(
  checks: readonly Check[],
  settled: SettledSources,
  limitMs: number,
  options: IsolatedRunOptions,
  onResult: (result: EvaluatedCheck) => void,
): Promise<WorkerEnd> {
  return new Promise((resolve) => {
    const child = options.spawnWorker(
      checks.map((check) => check.id),
      settled,
    );
    let lastSource: string | null = null;
    let done = false;
    let stalled = false;
    let pending = "";
    let stderrTail = "";
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        stalled = true;
        child.kill("SIGKILL");
      }, limitMs);
    };
    arm();
    child.stdout?.setEncoding("utf8");
    child.stdout?.on("data", (chunk: string) => {
      arm();
      const lines = (pending + chunk).split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        const at = line.indexOf(WORKER_EVENT_PREFIX);
        const printed = at < 0 ? line : line.slice(0, at);
        if (printed.length > 0 || at < 0) options.onWorkerOutput?.(`${printed}\n`);
        if (at < 0) continue;
        const event = JSON.parse(line.slice(at + WORKER_EVENT_PREFIX.length)) as WorkerEvent;
        if (event.event === "source") lastSource = event.source;
        else if (event.event === "result") onResult(event.result);
        else done = true;
      }
    });
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      stderrTail = (stderrTail + chunk).slice(-STDERR_TAIL_CHARS);
      options.onWorkerOutput?.(chunk);
    });
    child.on("error", (error) => {
      stderrTail = `${stderrTail}\n${error.message}`.slice(-STDERR_TAIL_CHARS);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (done && code === 0) resolve({ kind: "done" });
      else if (stalled) resolve({ kind: "stalled", lastSource });
      else resolve({ kind: "exited", lastSource, exit: signal !== null ? `signal ${signal}` : `code ${code}`, stderrTail: stderrTail.trim() });
    });
  });
}
