import { stripPersistenceFields } from "../../contract/persistence-fields.ts";
import type { Message } from "../../contract/types.ts";
import { UNSENDABLE_KINDS, validateMessage } from "../../contract/validate.ts";
import { canonicalJson } from "../../trace/canonical-json.ts";
import type { EngineCallEvent, ResultKind } from "../../trace/events.ts";
import type { CheckRun } from "../types.ts";
import { isMessageObject } from "./helpers.ts";

/** One select_context call, from a probe or from the host's request assembly. */
export interface SelectionObservation {
  source: string;
  seed: number;
  /** The probe case, or "request" for the host's. */
  label: string;
  host: boolean;
  event: EngineCallEvent;
  kind: ResultKind;
  error: string | null;
  /** The answer, when it was a list and the trace holds it (probe calls). */
  output: unknown[] | null;
  /** The request the engine was given, when the trace holds it (probe calls). */
  request: Message[] | null;
  /** conversation_messages / incoming_message the engine changed (SEL-6). */
  mutated: string[];
  /** What request_messages became when the engine edited it in place (allowed; it is what would be sent), or null. */
  editedRequest: Message[] | null;
  /** Why the answer cannot be sent (an element a provider refuses), or null. */
  refused: string | null;
  /** What the host's sanitizers had to repair in the selection (host calls; null when the trace cannot tell). */
  repairs: string[] | null;
  /** The answer is a list that differs from the request on the wire. */
  replaces: boolean;
  /** Keys for SEL-8: the same input, and the answer to it. */
  inputKey: string;
  answerKey: string;
}

const cache = new WeakMap<CheckRun, SelectionObservation[]>();

export function selectionObservations(runs: readonly CheckRun[]): SelectionObservation[] {
  return runs.flatMap((run) => {
    let found = cache.get(run);
    if (found === undefined) {
      found = run.trace.flatMap((event) => (event.type === "engine-call" && event.hook === "select_context" ? [observe(run, event)].filter((o): o is SelectionObservation => o !== null) : []));
      cache.set(run, found);
    }
    return found;
  });
}

const wire = (messages: readonly unknown[]) => canonicalJson(messages.map((m) => (isMessageObject(m) ? stripPersistenceFields(m) : m)));

function observe(run: CheckRun, event: EngineCallEvent): SelectionObservation | null {
  const detail = event.detail ?? {};
  const base = { source: run.source, seed: run.seed, event, kind: event.resultKind, error: event.error };
  if (typeof detail["selection"] === "string") {
    // The host's call: it digested the request and conversation, and recorded what the engine did to them.
    return {
      ...base,
      label: "request",
      host: true,
      output: null,
      request: null,
      mutated: Array.isArray(detail["mutated"]) ? (detail["mutated"] as string[]) : [],
      editedRequest: null,
      refused: typeof detail["refused"] === "string" ? detail["refused"] : null,
      repairs: Array.isArray(detail["repairs"]) ? (detail["repairs"] as string[]) : [],
      replaces: detail["selection"] === "replaced" && event.result?.digest !== event.args[0]?.digest,
      inputKey: `${event.session}/${event.args[0]?.digest}/${event.args[1]?.digest}`,
      answerKey: event.result?.digest ?? event.resultKind,
    };
  }
  if (typeof detail["case"] !== "string" || !("before" in detail)) return null;
  const before = detail["before"] as Record<string, string>;
  const after = (detail["after"] as Record<string, string> | undefined) ?? before;
  const request = Array.isArray(detail["request"]) ? (detail["request"] as Message[]) : null;
  const output = event.resultKind === "list" && Array.isArray(detail["output"]) ? (detail["output"] as unknown[]) : null;
  const requestAfter = Array.isArray(detail["requestAfter"]) ? (detail["requestAfter"] as Message[]) : null;
  const edited = before["request"] !== after["request"] && requestAfter !== null ? requestAfter : null;
  return {
    ...base,
    label: detail["case"],
    host: false,
    output,
    request,
    mutated: [["conversation", "conversation_messages"], ["incoming", "incoming_message"]].filter(([key]) => before[key!] !== after[key!]).map(([, name]) => name!),
    editedRequest: edited,
    refused: output === null ? null : unsendable(output),
    repairs: null,
    replaces: output !== null && request !== null && wire(output) !== wire(request),
    inputKey: `${event.session}/${request === null ? "" : canonicalJson(request)}`,
    answerKey: output === null ? event.resultKind : canonicalJson(output),
  };
}

function unsendable(list: readonly unknown[]): string | null {
  for (const [index, message] of list.entries()) {
    const found = validateMessage(message, index).find((finding) => finding.severity === "error" && UNSENDABLE_KINDS.has(finding.kind));
    if (found) return found.detail;
  }
  return null;
}

/** One on_turn_complete call a check can judge: from a probe (digests) or from the host (a comparison). */
export interface TurnObservation {
  source: string;
  seed: number;
  label: string;
  host: boolean;
  event: EngineCallEvent;
  usageNull: boolean;
  /** The engine changed the transcript it was shown (OTC-4); null when the trace cannot tell. */
  modified: boolean | null;
}

export function turnObservations(runs: readonly CheckRun[]): TurnObservation[] {
  const found: TurnObservation[] = [];
  for (const run of runs) {
    for (const event of run.trace) {
      if (event.type !== "engine-call" || event.hook !== "on_turn_complete") continue;
      const detail = event.detail ?? {};
      const base = { source: run.source, seed: run.seed, event };
      if (typeof detail["modified"] === "boolean") found.push({ ...base, label: "turn", host: true, usageNull: detail["usage_null"] === true, modified: detail["modified"] });
      else if (typeof detail["case"] === "string") {
        found.push({ ...base, label: detail["case"], host: false, usageNull: "usage" in detail && detail["usage"] === null, modified: "before" in detail && "after" in detail ? detail["before"] !== detail["after"] : null });
      }
    }
  }
  return found;
}
