import type { CompressOptions, Message } from "../contract/types.ts";
import { estimateTokensRough } from "../contract/tokens.ts";
import type { CompactionOutcome, CompactionTrigger } from "../trace/events.ts";
import { isThenable, type HookOutcome } from "../trace/recorder.ts";
import { cloneMessages, cloneValue, traceCopies } from "./clone.ts";
import { historyTokensRough } from "./history-tokens.ts";
import { sanitizeMemoryContext } from "./memory-context.ts";
import type { HostRuntime, SessionRuntime } from "./runtime.ts";
import { notifyHook } from "./lifecycle.ts";
import { deepEqual } from "./deep-equal.ts";
import { describe, firstUnsendable, ruleOfFinding } from "../contract/validate.ts";
import { notifyObservers, type ObservedPass } from "./observers.ts";
import { unstorableField } from "./sendable.ts";
import { warn } from "./tools.ts";

export interface PassRequest {
  trigger: CompactionTrigger;
  focusTopic?: string | null;
  force?: boolean;
  bypassCooldown?: boolean;
  currentTokens?: number | null;
  /** Commit by rotation into this store session instead of the configured mode. */
  rotateTo?: string;
}

export interface PassResult {
  outcome: CompactionOutcome;
  tokensBefore: number;
  tokensAfter: number | null;
}

/** How long the host waits, after aborting, for a timed-out engine's work to settle (upstream's worker grace). */
export const SETTLE_GRACE_MS = 5000;

/**
 * `returned` is what compress returned (a remote engine's promise carries the call's native facts);
 * for a timeout, `settled` says whether the engine's work ended within the host's grace.
 */
type Settled = { kind: "done"; outcome: HookOutcome; async: boolean; returned?: unknown } | { kind: "timeout"; settled: boolean; returned?: unknown };

/**
 * One compaction pass (THR-3): the engine works on a private deep snapshot under a host timeout
 * with an AbortSignal; a late result is discarded (the commit fence); the host refuses an invalid,
 * empty, unchanged or grown list; a commit writes through the store, keeps engine uids (UID-6),
 * sets last_prompt_tokens = -1 and calls on_session_start with the compression boundary reason.
 * One pass per session at a time; passes of different sessions share the bounded pool.
 */
export async function runCompactionPass(runtime: HostRuntime, session: SessionRuntime, request: PassRequest): Promise<PassResult> {
  const before = session.history;
  const tokensBefore = historyTokensRough(before);
  if (session.compacting) {
    recordCompaction(runtime, session, request, "busy", traceCopies(before), null, tokensBefore, null, "a pass of this session is already running", 0, null);
    return { outcome: "busy", tokensBefore, tokensAfter: null };
  }
  session.compacting = true;
  try {
    return await runtime.pool.run(() => passInSlot(runtime, session, request, before, tokensBefore));
  } finally {
    session.compacting = false;
  }
}

async function passInSlot(
  runtime: HostRuntime,
  session: SessionRuntime,
  request: PassRequest,
  before: Message[],
  tokensBefore: number,
): Promise<PassResult> {
  const { engine, settings } = runtime;
  const forcedTimeout = session.timeoutNextCompaction;
  session.timeoutNextCompaction = false;
  const observed: ObservedPass = { pass: runtime.passCount++, session: session.id, trigger: request.trigger, home: settings.home, recorder: runtime.recorder };
  notifyObservers(runtime.observers, "passStarted", observed);
  const { snapshot, traceInput } = historyCopies(before);
  notifyObservers(runtime.observers, "snapshotTaken", observed, snapshot);
  const controller = new AbortController();
  const options: CompressOptions = { signal: controller.signal };
  if (request.force === true) options.force = true;
  if (request.bypassCooldown === true) options.bypass_cooldown = true;
  if (settings.memoryContext !== null) {
    const memory = sanitizeMemoryContext(settings.memoryContext, runtime.scenario.secrets.map((secret) => secret.value));
    if (memory.length > 0) options.memory_context = memory;
  }
  const currentTokens = request.currentTokens ?? tokensBefore;
  const focusTopic = request.focusTopic ?? null;
  const args = [snapshot, currentTokens, focusTopic, options] as const;
  const argsForTrace = [traceInput, currentTokens, focusTopic, options];

  const started = performance.now();
  const settled = await settleWithTimeout(runtime, args, forcedTimeout, controller, observed);
  const durationMs = performance.now() - started;
  notifyObservers(runtime.observers, "passSettled", observed, settled.kind === "timeout" ? { settled: settled.settled, discarded: true } : { settled: true, discarded: false });
  const context = { session: session.id, detail: { trigger: request.trigger, forcedTimeout } };

  if (settled.kind === "timeout") {
    runtime.recorder.recordEngineCall(engine, "compress", argsForTrace, { timeout: true }, true, durationMs, context, settled.returned);
    recordCompaction(runtime, session, request, "timeout", traceInput, null, tokensBefore, null, `host timeout after ${forcedTimeout ? 0 : settings.compactionTimeoutMs} ms; the late result is discarded`, durationMs, observed.pass);
    return { outcome: "timeout", tokensBefore, tokensAfter: null };
  }
  runtime.recorder.recordEngineCall(engine, "compress", argsForTrace, settled.outcome, settled.async, durationMs, context, settled.returned);
  if (!settled.outcome.ok) {
    const error = settled.outcome.error instanceof Error ? settled.outcome.error.message : String(settled.outcome.error);
    recordCompaction(runtime, session, request, "error", traceInput, null, tokensBefore, null, error, durationMs, observed.pass);
    return { outcome: "error", tokensBefore, tokensAfter: null };
  }
  const output = settled.outcome.value;
  const verdict = judgeOutput(output, before, tokensBefore);
  // An output JSON cannot carry (a cycle, a BigInt) is refused and kept out of the trace; its reason names the element.
  const outputForTrace = Array.isArray(output) && verdict.storable ? (cloneValue(output) as Message[]) : null;
  if (verdict.outcome !== "committed") {
    if (verdict.outcome === "refused-invalid") warn(runtime, `Compression refused: ${verdict.reason}; the history is kept`, verdict.rule, session.id);
    recordCompaction(runtime, session, request, verdict.outcome, traceInput, outputForTrace, tokensBefore, verdict.tokensAfter, verdict.reason, durationMs, observed.pass);
    return { outcome: verdict.outcome, tokensBefore, tokensAfter: verdict.tokensAfter };
  }
  const oldStoreId = session.storeId;
  commit(runtime, session, request, output as Message[]);
  recordCompaction(runtime, session, request, "committed", traceInput, outputForTrace, tokensBefore, verdict.tokensAfter, null, durationMs, observed.pass);
  markAwaitingRealUsage(runtime, session);
  await notifyHook(runtime, session, "on_session_start", [
    session.storeId,
    { boundary_reason: "compression", old_session_id: oldStoreId, platform: session.platform, conversation_id: null },
  ]);
  return { outcome: "committed", tokensBefore, tokensAfter: verdict.tokensAfter };
}

/** What a pass copies of the history: the engine's private deep snapshot (THR-3) and the trace's record of the input (traceCopies). */
export function historyCopies(before: readonly Message[]): { snapshot: Message[]; traceInput: Message[] } {
  return { snapshot: cloneMessages(before), traceInput: traceCopies(before) };
}

/**
 * Call compress and wait for it, or for the host timeout. `forced` (the scenario's
 * timeout-next-compaction) times out deterministically: the signal is aborted as soon as the call
 * returns and whatever it produced is dropped. Either way the host waits (bounded by the timeout)
 * for the engine's work to settle, so nothing it does afterwards overlaps the next step.
 */
async function settleWithTimeout(
  runtime: HostRuntime,
  args: readonly [Message[], number, string | null, CompressOptions],
  forced: boolean,
  controller: AbortController,
  observed: ObservedPass,
): Promise<Settled> {
  const discard = () => {
    controller.abort();
    notifyObservers(runtime.observers, "passDiscarded", observed);
  };
  let returned: unknown;
  try {
    returned = runtime.engine.compress(...args);
  } catch (error) {
    if (forced) {
      discard();
      return { kind: "timeout", settled: true };
    }
    return { kind: "done", outcome: { ok: false, error }, async: false };
  }
  if (!isThenable(returned)) {
    if (forced) {
      discard();
      return { kind: "timeout", settled: true };
    }
    return { kind: "done", outcome: { ok: true, value: returned }, async: false };
  }
  const work: Promise<HookOutcome> = Promise.resolve(returned).then(
    (value): HookOutcome => ({ ok: true, value }),
    (error: unknown): HookOutcome => ({ ok: false, error }),
  );
  const timeoutMs = runtime.settings.compactionTimeoutMs;
  const graceMs = Math.max(SETTLE_GRACE_MS, timeoutMs);
  if (forced) {
    discard();
    return { kind: "timeout", settled: (await raceTimer(work, graceMs)) !== "timeout", returned };
  }
  const first = await raceTimer(work, timeoutMs);
  if (first !== "timeout") return { kind: "done", outcome: first, async: true, returned };
  discard();
  return { kind: "timeout", settled: (await raceTimer(work, graceMs)) !== "timeout", returned };
}

function raceTimer<T>(work: Promise<T>, ms: number): Promise<T | "timeout"> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

interface Verdict {
  outcome: CompactionOutcome;
  tokensAfter: number | null;
  reason: string | null;
  /** False when the output holds something JSON cannot carry, so not even the trace can keep it. */
  storable: boolean;
  /** The rule a refused-invalid output breaks, for the warning. */
  rule: string | null;
}

/**
 * The host's refusals: upstream's candidate checks (empty, unchanged, grown) plus what the host can
 * neither store nor send — a non-list, an element that is not a message, a value JSON cannot carry,
 * or a message a provider refuses outright (content shape, tool-call shape). Pairing problems are
 * left to the per-request sanitizers, as upstream does; the certifier judges them (CMP-2).
 */
export function judgeOutput(output: unknown, before: readonly Message[], tokensBefore: number): Verdict {
  const refused = (reason: string, rule: string, storable = true): Verdict => ({ outcome: "refused-invalid", tokensAfter: null, reason, storable, rule });
  if (!Array.isArray(output)) return refused(`compress() returned ${describe(output)}, not a list`, "CMP-1", false);
  if (output.length === 0) return { outcome: "refused-empty", tokensAfter: 0, reason: "compress() returned an empty list", storable: true, rule: null };
  for (const [index, item] of (output as unknown[]).entries()) {
    const unsafe = unstorableField(item);
    if (unsafe !== null) return refused(`compress() output cannot be stored: element ${index}: ${unsafe}`, "CMP-1", false);
  }
  const unsendable = firstUnsendable(output);
  if (unsendable !== null) return refused(`compress() output cannot be sent: ${unsendable.detail}`, ruleOfFinding(unsendable.kind));
  const messages = output as Message[];
  const tokensAfter = estimateTokensRough(messages);
  if (deepEqual(messages, before)) {
    return { outcome: "refused-unchanged", tokensAfter, reason: "Compression made no progress; skipping boundary rewrite", storable: true, rule: null };
  }
  if (tokensAfter > tokensBefore) {
    return { outcome: "refused-grew", tokensAfter, reason: "Compression refused: the result would have grown the context", storable: true, rule: null };
  }
  return { outcome: "committed", tokensAfter, reason: null, storable: true, rule: null };
}

/** After a commit, last_prompt_tokens = -1 until real usage arrives (upstream's sentinel). */
function markAwaitingRealUsage(runtime: HostRuntime, session: SessionRuntime): void {
  session.awaitingRealUsage = true;
  try {
    runtime.engine.last_prompt_tokens = -1;
    runtime.engine.last_completion_tokens = 0;
  } catch (error) {
    runtime.recorder.record({ type: "warning", session: session.id, message: `could not reset the engine's token counters: ${String(error)}`, rule: null });
  }
}

/** Write the compacted list through the store and adopt the restored history (the store restores it once, in the commit). */
function commit(runtime: HostRuntime, session: SessionRuntime, request: PassRequest, output: Message[]): void {
  const rows = cloneMessages(output);
  const rotateTo = request.rotateTo ?? (runtime.settings.compactionMode === "rotation" ? `${session.id}~r${++session.generation}` : undefined);
  if (rotateTo !== undefined) {
    session.history = runtime.store.rotate(session.storeId, rotateTo, rows);
    session.storeId = rotateTo;
  } else {
    session.history = runtime.store.compactInPlace(session.storeId, rows);
  }
}

function recordCompaction(
  runtime: HostRuntime,
  session: SessionRuntime,
  request: PassRequest,
  outcome: CompactionOutcome,
  input: Message[],
  output: Message[] | null,
  tokensBefore: number,
  tokensAfter: number | null,
  error: string | null,
  durationMs: number,
  pass: number | null,
): void {
  runtime.recorder.record({
    type: "compaction",
    session: session.id,
    pass,
    trigger: request.trigger,
    outcome,
    focus_topic: request.focusTopic ?? null,
    input,
    output,
    tokensBefore,
    tokensAfter,
    mode: request.rotateTo !== undefined || runtime.settings.compactionMode === "rotation" ? "rotation" : "in-place",
    error,
    durationMs,
  });
}
