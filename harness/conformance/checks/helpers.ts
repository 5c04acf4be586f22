import type { Message } from "../../contract/types.ts";
import type { CompactionEvent, EngineCallEvent, EngineHook, TraceEvent } from "../../trace/events.ts";
import type { CheckRun, Evaluation, Evidence } from "../types.ts";

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
  event: TraceEvent;
}

export function compressObservations(runs: readonly CheckRun[]): CompressObservation[] {
  const found: CompressObservation[] = [];
  for (const run of runs) {
    for (const event of run.trace) {
      if (event.type === "engine-call" && event.hook === "compress" && event.detail && Array.isArray(event.detail["input"])) {
        const detail = event.detail;
        const output = detail["output"];
        found.push({
          source: run.source,
          label: String(detail["case"] ?? "compress"),
          input: detail["input"] as Message[],
          output: event.resultKind === "list" && Array.isArray(output) ? output : null,
          failure: event.resultKind === "error" || event.resultKind === "timeout" ? (event.error ?? event.resultKind) : null,
          refusal: null,
          focusTopic: typeof detail["focus_topic"] === "string" ? detail["focus_topic"] : null,
          thresholdTokens: typeof detail["threshold_tokens"] === "number" ? detail["threshold_tokens"] : null,
          event,
        });
      } else if (event.type === "compaction" && !isDiscarded(event)) {
        found.push({
          source: run.source,
          label: `${event.trigger} compaction`,
          input: event.input,
          output: event.output,
          failure: event.outcome === "error" ? (event.error ?? "error") : null,
          refusal: event.outcome === "refused-invalid" ? event.error : null,
          focusTopic: event.focus_topic,
          thresholdTokens: null,
          event,
        });
      }
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
