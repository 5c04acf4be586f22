import type { ContextEngine } from "../contract/context-engine.ts";
import { nativeCallFacts } from "../contract/native.ts";
import { digestValue, type JsonMemo } from "./canonical-json.ts";
import type {
  EngineCallEvent,
  EngineHook,
  EngineStateSnapshot,
  ResultKind,
  Trace,
  TraceEvent,
} from "./events.ts";

/** An event as the host emits it; the recorder assigns `seq`. */
export type UnsequencedEvent = TraceEvent extends infer E ? (E extends TraceEvent ? Omit<E, "seq"> : never) : never;

/** The outcome of one engine call: its value, or what it threw. */
export type HookOutcome<T = unknown> = { ok: true; value: T } | { ok: false; error: unknown };

export interface CallContext {
  session: string | null;
  /** Values a check needs verbatim (recorded on the event as `detail`). */
  detail?: Record<string, unknown>;
  /**
   * What to digest instead of the arguments, when they hold run-specific values (e.g. a sandbox
   * path); a function is asked once the call has returned.
   */
  digestArgs?: readonly unknown[] | (() => readonly unknown[]);
  /**
   * What to digest instead of the answer: a value whose canonical JSON is the answer's, as it is
   * when the call has returned (e.g. the same list with cached stand-ins for unchanged elements).
   */
  digestResult?: (value: unknown) => unknown;
  /**
   * More detail once the call has returned (what it did to its arguments, a copy of its answer),
   * merged into `detail` before the event is recorded, so an event never changes after it is in the trace.
   */
  detailAfter?: (outcome: HookOutcome) => Record<string, unknown>;
}

/** Hooks whose answer is a message list: any other non-null answer is classified "non-list". */
const LIST_HOOKS: ReadonlySet<EngineHook> = new Set(["select_context", "compress", "get_tool_schemas"]);

/** Appends trace events in order, numbering them from 0. */
export class TraceRecorder {
  readonly #events: TraceEvent[] = [];
  #memo: JsonMemo | undefined;

  /**
   * Cache the canonical JSON of objects `isStable` accepts (they must never change afterwards), so
   * digests of long histories stay cheap. The host enables it for its persisted messages.
   */
  memoizeDigests(isStable: (value: object) => boolean): void {
    this.#memo = { cache: new WeakMap(), isStable };
  }

  get events(): Trace {
    return this.#events;
  }

  get size(): number {
    return this.#events.length;
  }

  record<E extends UnsequencedEvent>(event: E): E & { seq: number } {
    const sequenced = { seq: this.#events.length, ...event } as E & { seq: number };
    this.#events.push(sequenced as unknown as TraceEvent);
    return sequenced;
  }

  /**
   * Call `engine[hook](...args)` and record an `engine-call` event. A synchronous answer is
   * recorded and returned synchronously (no Promise, no await); only a thenable is awaited.
   * An exception never escapes: it is returned as `{ ok: false, error }`.
   */
  callHook<T = unknown>(
    engine: ContextEngine,
    hook: EngineHook,
    args: readonly unknown[],
    context: CallContext,
  ): HookOutcome<T> | Promise<HookOutcome<T>> {
    const started = performance.now();
    let returned: unknown;
    try {
      const method = (engine as unknown as Record<string, unknown>)[hook];
      if (typeof method !== "function") throw new TypeError(`engine has no ${hook} method`);
      returned = (method as (...a: unknown[]) => unknown).apply(engine, args as unknown[]);
    } catch (error) {
      this.recordEngineCall(engine, hook, args, { ok: false, error }, false, performance.now() - started, context);
      return { ok: false, error };
    }
    if (!isThenable(returned)) {
      this.recordEngineCall(engine, hook, args, { ok: true, value: returned }, false, performance.now() - started, context);
      return { ok: true, value: returned as T };
    }
    return Promise.resolve(returned).then(
      (value) => {
        this.recordEngineCall(engine, hook, args, { ok: true, value }, true, performance.now() - started, context, returned);
        return { ok: true, value: value as T } as const;
      },
      (error: unknown) => {
        this.recordEngineCall(engine, hook, args, { ok: false, error }, true, performance.now() - started, context, returned);
        return { ok: false, error } as const;
      },
    );
  }

  /**
   * Record an engine call the host made itself (e.g. a compaction pass under a timeout).
   * `returned` is what the hook returned: an engine behind the engine protocol attaches that
   * call's native facts to it, and they go on the event as `native`.
   */
  recordEngineCall(
    engine: ContextEngine,
    hook: EngineHook,
    args: readonly unknown[],
    outcome: HookOutcome | { timeout: true },
    async: boolean,
    durationMs: number,
    context: CallContext,
    returned?: unknown,
  ): EngineCallEvent {
    const timedOut = "timeout" in outcome;
    const event: Omit<EngineCallEvent, "seq"> = {
      type: "engine-call",
      session: context.session,
      hook,
      args: (typeof context.digestArgs === "function" ? context.digestArgs() : (context.digestArgs ?? args)).map((value) => digestValue(value, this.#memo)),
      resultKind: timedOut ? "timeout" : outcome.ok ? classifyResult(hook, outcome.value) : "error",
      result: !timedOut && outcome.ok ? digestValue(context.digestResult === undefined ? outcome.value : context.digestResult(outcome.value), this.#memo) : null,
      error: timedOut ? "host timeout" : outcome.ok ? null : describeError(outcome.error),
      async,
      stateAfter: readEngineState(engine),
      durationMs,
    };
    const after = context.detailAfter !== undefined && !timedOut ? context.detailAfter(outcome) : undefined;
    const detail = after === undefined ? context.detail : Object.assign(context.detail ?? {}, after);
    if (detail !== undefined) event.detail = detail;
    const native = nativeCallFacts(returned);
    if (native !== null) event.native = native;
    return this.record(event);
  }
}

export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === "object" || typeof value === "function") &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

export function classifyResult(hook: EngineHook, value: unknown): ResultKind {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (Array.isArray(value)) return "list";
  if (LIST_HOOKS.has(hook)) return "non-list";
  if (typeof value === "boolean") return "boolean";
  if (typeof value === "string") return "string";
  return "value";
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/** The engine's budget fields, read as they are (a broken engine's odd values are evidence). */
export function readEngineState(engine: ContextEngine): EngineStateSnapshot {
  return {
    last_prompt_tokens: readEngineField(engine, "last_prompt_tokens"),
    last_completion_tokens: readEngineField(engine, "last_completion_tokens"),
    last_total_tokens: readEngineField(engine, "last_total_tokens"),
    threshold_tokens: readEngineField(engine, "threshold_tokens"),
    context_length: readEngineField(engine, "context_length"),
    compression_count: readEngineField(engine, "compression_count"),
  };
}

/** One budget field; a getter that throws reads as NaN (null in the trace) instead of stopping the run. */
export function readEngineField(engine: ContextEngine, field: keyof EngineStateSnapshot): number {
  try {
    return engine[field];
  } catch {
    return Number.NaN;
  }
}
