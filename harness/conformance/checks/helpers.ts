import type { Message } from "../../contract/types.ts";
import type { CompactionEvent, EngineCallEvent, EngineHook, TraceEvent } from "../../trace/events.ts";
import type { Check, CheckRun, Evaluation, Evidence } from "../types.ts";

/** An engine-call event with the run it came from. */
export interface Call {
  source: string;
  event: EngineCallEvent;
  detail: Record<string, unknown>;
}

export function calls(runs: readonly CheckRun[], hook: EngineHook, where: (detail: Record<string, unknown>) => boolean = () => true): Call[] {
  const found: Call[] = [];
  for (const run of runs) {
    for (const event of run.trace) {
      if (event.type !== "engine-call" || event.hook !== hook) continue;
      const detail = event.detail ?? {};
      if (where(detail)) found.push({ source: run.source, event, detail });
    }
  }
  return found;
}

export function allCalls(runs: readonly CheckRun[]): Call[] {
  const found: Call[] = [];
  for (const run of runs) {
    for (const event of run.trace) if (event.type === "engine-call") found.push({ source: run.source, event, detail: event.detail ?? {} });
  }
  return found;
}

/** One compress() the engine answered: from a probe's engine-call or a host compaction event. */
export interface CompressObservation {
  source: string;
  seed: number;
  /** Probe case name, or the compaction trigger. */
  label: string;
  input: Message[];
  /** The answer when it was a list; null when it threw, timed out or was not a list. */
  output: unknown[] | null;
  /** Set when compress threw or timed out. */
  failure: string | null;
  /** Why the host refused the answer as one it can neither store nor send (it names the element), or null. */
  refusal: string | null;
  focusTopic: string | null;
  thresholdTokens: number | null;
  /**
   * The probe case that is this input with its special feature taken away (repeated ids made
   * unique, the missing uids given): what the engine does on it tells whether the feature caused a
   * defect. Null when the observation has no such twin.
   */
  counterfactual: string | null;
  /** A condition of the call the probe set up (e.g. "other-context": called from outside the session's async context). */
  condition: string | null;
  event: TraceEvent;
}

const observationsByRun = new WeakMap<CheckRun, CompressObservation[]>();

/** Every compress the engine answered, probe calls and host passes alike (a pass the host discarded on timeout says nothing and is left out). */
export function compressObservations(runs: readonly CheckRun[]): CompressObservation[] {
  return runs.flatMap((run) => {
    let found = observationsByRun.get(run);
    if (found === undefined) {
      found = observationsOfRun(run);
      observationsByRun.set(run, found);
    }
    return found;
  });
}

function observationsOfRun(run: CheckRun): CompressObservation[] {
  const found: CompressObservation[] = [];
  for (const event of run.trace) {
    if (event.type === "engine-call" && event.hook === "compress" && event.detail && Array.isArray(event.detail["input"]) && event.detail["discarded"] !== true) {
      const detail = event.detail;
      const output = detail["output"];
      found.push({
        source: run.source,
        seed: run.seed,
        label: String(detail["case"] ?? "compress"),
        input: detail["input"] as Message[],
        output: event.resultKind === "list" && Array.isArray(output) ? output : null,
        failure: event.resultKind === "error" || event.resultKind === "timeout" ? (event.error ?? event.resultKind) : null,
        refusal: event.resultKind === "list" || event.resultKind === "error" || event.resultKind === "timeout" ? null : `compress returned ${event.resultKind === "non-list" ? "a value that is not a list" : event.resultKind}, not a list`,
        counterfactual: typeof detail["counterfactual"] === "string" ? detail["counterfactual"] : null,
        condition: typeof detail["condition"] === "string" ? detail["condition"] : null,
        focusTopic: typeof detail["focus_topic"] === "string" ? detail["focus_topic"] : null,
        thresholdTokens: typeof detail["threshold_tokens"] === "number" ? detail["threshold_tokens"] : null,
        event,
      });
    } else if (event.type === "compaction" && !isDiscarded(event)) {
      found.push({
        source: run.source,
        seed: run.seed,
        label: `${event.trigger} compaction`,
        input: event.input,
        output: event.output,
        failure: event.outcome === "error" ? (event.error ?? "error") : null,
        refusal: event.outcome === "refused-invalid" ? event.error : null,
        focusTopic: event.focus_topic,
        thresholdTokens: null,
        counterfactual: null,
        condition: null,
        event,
      });
    }
  }
  return found;
}

/** A pass the host timed out or found busy says nothing about the engine's answer. */
function isDiscarded(event: CompactionEvent): boolean {
  return event.outcome === "timeout" || event.outcome === "busy";
}

export function evidenceOf(source: string, event: TraceEvent, note: string): Evidence {
  return { source, seq: event.seq, note, event };
}

export const pass = (message: string, evidence: Evidence[] = []): Evaluation => ({ outcome: "pass", message, evidence });
export const fail = (message: string, evidence: Evidence[]): Evaluation => ({ outcome: "fail", message, evidence: evidence.slice(0, 5) });
export const skipped = (reason: string): Evaluation => ({ outcome: "skipped", message: reason, evidence: [], skipReason: reason });
export const indeterminate = (message: string): Evaluation => ({ outcome: "indeterminate", message, evidence: [] });

/** Text of a message's content, whatever its shape. */
export function textOf(message: unknown): string {
  if (message === null || typeof message !== "object") return "";
  const content = (message as { content?: unknown }).content;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((part) => (typeof (part as { text?: unknown })?.text === "string" ? (part as { text: string }).text : "")).join("\n");
  return "";
}

export function isMessageObject(value: unknown): value is Message {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * A check written for one run of its probe, evaluated for every seed's run on its own: the first
 * failure decides and names its seed; a pass says over how many seeds it held.
 */
export function perSeed(check: Check): Check {
  return {
    ...check,
    evaluate(runs) {
      const seeds = [...new Set(runs.map((run) => run.seed))].sort((a, b) => a - b);
      if (seeds.length <= 1) return check.evaluate(runs);
      const results = seeds.map((seed) => ({ seed, evaluation: check.evaluate(runs.filter((run) => run.seed === seed)) }));
      const decided = results.find((r) => r.evaluation.outcome === "fail") ?? results.find((r) => r.evaluation.outcome === "indeterminate");
      if (decided) return { ...decided.evaluation, message: `seed ${decided.seed}: ${decided.evaluation.message}` };
      if (results.every((r) => r.evaluation.outcome === "skipped")) return results[0]!.evaluation;
      const first = results.find((r) => r.evaluation.outcome === "pass") ?? results[0]!;
      return { ...first.evaluation, message: `${first.evaluation.message} (at each of seeds ${seeds.join(", ")})` };
    },
  };
}
