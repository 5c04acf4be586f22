import type { Message } from "../../contract/types.ts";
import { stripPersistenceFields } from "../../contract/persistence-fields.ts";
import { estimateTokensRough } from "../../contract/tokens.ts";
import { ruleOfFinding, validateMessage, validateSequence, type SequenceFinding, type SequenceFindingKind } from "../../contract/validate.ts";
import { canonicalJson } from "../../trace/canonical-json.ts";
import { FOCUS_FACT_PREFIX } from "../probes/compress.ts";
import type { Check, CheckRun, Evaluation } from "../types.ts";
import { observationsTagged, ordinaryObservations, type InputTag } from "./classify.ts";
import { compressObservations, evidenceOf, fail, indeterminate, isMessageObject, pass, skipped, textOf, type CompressObservation } from "./helpers.ts";

/**
 * Scenarios played through the reference host for the ordinary checks. Kept lean so that a full
 * certification stays within its time goal; the probes cover the rest of the ground.
 */
const ORDINARY_SCENARIOS = ["parallel-tool-calls", "huge-tool-outputs"] as const;
const PROBES = ["compress"] as const;

const note = (o: CompressObservation, text: string) => evidenceOf(o.source, o.event, `${o.label}: ${text}`);

/** Judges every observation; the first failure decides. */
function judge(observations: readonly CompressObservation[], none: string, each: (o: CompressObservation) => string | null, ok: (n: number) => string): Evaluation {
  if (observations.length === 0) return indeterminate(none);
  for (const observation of observations) {
    const problem = each(observation);
    if (problem !== null) return fail(`${observation.label} (${observation.source}): ${problem}`, [note(observation, problem)]);
  }
  return pass(ok(observations.length));
}

/** A list answer of message objects, or why not. */
function listProblem(o: CompressObservation): string | null {
  if (o.failure !== null) return `compress failed: ${o.failure}`;
  if (o.output === null) return "compress did not return a list";
  return null;
}

/** Output elements that are exact copies of an input message: what the engine passed through is not its fault. */
function copiedElements(o: CompressObservation): Set<number> {
  const inputs = new Set(o.input.map((message) => canonicalJson(message)));
  const copied = new Set<number>();
  for (const [index, message] of (o.output ?? []).entries()) if (inputs.has(canonicalJson(message))) copied.add(index);
  return copied;
}

/** The first error-level finding about single messages of the given rule, on an element the engine authored or changed. */
function messageFinding(o: CompressObservation, rule: "CMP-1" | "CMP-2", accept: (finding: SequenceFinding) => boolean = () => true): string | null {
  if (o.output === null) return null;
  const copied = copiedElements(o);
  for (const [index, message] of o.output.entries()) {
    if (copied.has(index)) continue;
    const found = validateMessage(message, index).find((finding) => finding.severity === "error" && ruleOfFinding(finding.kind) === rule && accept(finding));
    if (found) return found.detail;
  }
  return null;
}

function shapeProblem(o: CompressObservation): string | null {
  if (o.failure !== null) return `compress failed: ${o.failure}`;
  if (o.output === null) return o.refusal ?? "compress did not return a list";
  return messageFinding(o, "CMP-1");
}

/** Provider ids an input message itself repeats (the scenario's own repetition, TCU-3): those may repeat in the output too. */
function idsRepeatedWithinAMessage(input: readonly Message[]): Set<string> {
  const repeated = new Set<string>();
  for (const message of input) {
    const seen = new Set<string>();
    for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
      if (seen.has(call?.id)) repeated.add(call.id);
      seen.add(call?.id);
    }
  }
  return repeated;
}

function toolCallShapeProblem(o: CompressObservation): string | null {
  if (o.output === null) return o.refusal !== null && /tool_call/.test(o.refusal) ? o.refusal : null;
  const shape = messageFinding(o, "CMP-2", (finding) => finding.kind !== "invalid-arguments-json");
  if (shape !== null) return shape;
  const allowed = idsRepeatedWithinAMessage(o.input);
  const copied = copiedElements(o);
  const duplicate = validateSequence(o.output).find((finding) => finding.kind === "duplicate-call-id" && !copied.has(finding.index) && !allowed.has(finding.callId ?? ""));
  return duplicate ? `${duplicate.detail}; expected ids unique within one response (the input never repeats "${duplicate.callId}" inside one message)` : null;
}

/** New sequence findings of the given kinds: present in the output, absent from the input. */
function sequenceProblem(o: CompressObservation, kinds: readonly SequenceFindingKind[]): string | null {
  if (o.output === null || !o.output.every(isMessageObject)) return null;
  const had = new Set(validateSequence(o.input).map((finding) => finding.kind));
  const found = validateSequence(o.output).find((finding) => finding.severity === "error" && kinds.includes(finding.kind) && !had.has(finding.kind));
  return found ? `${found.kind} at index ${found.index}: ${found.detail}` : null;
}

const messages = (o: CompressObservation) => (o.output ?? []).filter(isMessageObject) as Message[];
const observe = (runs: readonly CheckRun[]) => compressObservations(runs);
const ordinary = (runs: readonly CheckRun[]) => ordinaryObservations(observe(runs));
const tagged = (runs: readonly CheckRun[], tag: InputTag) => observationsTagged(observe(runs), tag);

function sequenceCheck(id: string, title: string, kinds: readonly SequenceFindingKind[]): Check {
  return {
    id,
    rule: "CMP-2",
    level: "MUST",
    title,
    scenarios: ORDINARY_SCENARIOS,
    probes: PROBES,
    evaluate: (runs) => judge(ordinary(runs), "no ordinary compress call to judge", (o) => sequenceProblem(o, kinds), (n) => `${n} outputs valid`),
  };
}

/** A special input must not make compress fail or answer something other than a list. */
function acceptsCheck(id: string, rule: string, tag: InputTag, title: string, scenarios: readonly string[], extra?: (o: CompressObservation) => string | null): Check {
  return {
    id,
    rule,
    level: "MUST",
    title,
    scenarios,
    probes: PROBES,
    evaluate: (runs) =>
      judge(tagged(runs, tag), `no compress call with a ${tag} input was recorded`, (o) => listProblem(o) ?? extra?.(o) ?? null, (n) => `${n} ${tag} inputs handled`),
  };
}

function focusFacts(o: CompressObservation): number {
  const found = new Set<string>();
  for (const message of messages(o)) for (const match of textOf(message).matchAll(new RegExp(`${FOCUS_FACT_PREFIX}\\d+`, "g"))) found.add(match[0]);
  return found.size;
}

/** UID-7: under a shared uid, the output keeps an earlier version and not the current (later) one. */
function staleVersionProblem(o: CompressObservation): string | null {
  const rows = new Map<string, string[]>();
  for (const message of o.input) {
    if (typeof message.message_uid === "string") rows.set(message.message_uid, [...(rows.get(message.message_uid) ?? []), textOf(message)]);
  }
  for (const [uid, versions] of rows) {
    if (versions.length < 2) continue;
    const current = versions[versions.length - 1]!;
    const kept = messages(o).filter((message) => message.message_uid === uid).map(textOf);
    if (kept.length === 0 || kept.includes(current)) continue;
    if (kept.some((text) => text !== current && versions.includes(text))) return `uid ${uid}: kept an earlier version and dropped the current one`;
  }
  return null;
}

function rewriteProblem(o: CompressObservation): string | null {
  const detail = o.event.type === "engine-call" ? (o.event.detail ?? {}) : {};
  const uid = detail["rewrittenUid"];
  const previous = detail["previousContent"];
  if (typeof uid !== "string" || typeof previous !== "string") return null;
  const kept = messages(o).find((message) => message.message_uid === uid);
  return kept && textOf(kept) === previous ? `uid ${uid} came back with its old content` : null;
}

export const compressChecks: Check[] = [
  {
    id: "CMP-1/message-shape",
    rule: "CMP-1",
    level: "MUST",
    title: "compress returns a list of message objects with a known role",
    scenarios: ORDINARY_SCENARIOS,
    probes: PROBES,
    evaluate: (runs) => judge(ordinary(runs), "no ordinary compress call to judge", shapeProblem, (n) => `${n} outputs well-formed`),
  },
  {
    id: "CMP-2/tool-call-shape",
    rule: "CMP-2",
    level: "MUST",
    title: "tool calls are a non-empty list of {id, type, function: {name, arguments}} with ids unique in one response, and every tool result names its call",
    scenarios: ORDINARY_SCENARIOS,
    probes: PROBES,
    evaluate: (runs) => judge(ordinary(runs), "no ordinary compress call to judge", toolCallShapeProblem, (n) => `${n} outputs with well-formed tool calls`),
  },
  sequenceCheck("CMP-2/orphaned-result", "no tool result without an earlier matching call", ["orphaned-result"]),
  sequenceCheck("CMP-2/unanswered-call", "every kept tool call keeps its result", ["unanswered-call"]),
  sequenceCheck("CMP-2/split-batch", "a parallel tool-call batch is never split", ["split-batch"]),
  sequenceCheck("CMP-2/arguments-json", "tool-call arguments that were JSON stay JSON", ["invalid-arguments-json"]),
  {
    id: "CMP-3/system-prompt-kept",
    rule: "CMP-3",
    level: "MUST",
    title: "a leading system message survives with all its text",
    scenarios: ORDINARY_SCENARIOS,
    probes: PROBES,
    evaluate: (runs) =>
      judge(
        ordinary(runs).filter((o) => o.input[0]?.role === "system" && o.output !== null),
        "no compress call with a leading system message",
        (o) => {
          const first = messages(o)[0];
          if (!first || first.role !== "system") return "the output does not start with the system message";
          return textOf(first).includes(textOf(o.input[0])) ? null : "the system message lost text";
        },
        (n) => `system prompt kept in ${n} outputs`,
      ),
  },
  {
    id: "CMP-4/no-growth",
    rule: "CMP-4",
    level: "MUST",
    title: "the output's token estimate is at most the input's",
    scenarios: ORDINARY_SCENARIOS,
    probes: PROBES,
    evaluate: (runs) =>
      judge(
        observe(runs).filter((o) => o.output !== null && o.output.every(isMessageObject)),
        "no compress output to measure",
        (o) => {
          const before = estimateTokensRough(o.input);
          const after = estimateTokensRough(messages(o));
          return after > before ? `grew from ${before} to ${after} estimated tokens` : null;
        },
        (n) => `${n} outputs no larger than their input`,
      ),
  },
  {
    id: "CMP-5/progress",
    rule: "CMP-5",
    level: "SHOULD",
    title: "an input over the threshold comes back below it",
    scenarios: [],
    probes: PROBES,
    evaluate: (runs) =>
      judge(
        ordinary(runs).filter((o) => o.output !== null && o.thresholdTokens !== null && o.thresholdTokens > 0 && estimateTokensRough(o.input) > o.thresholdTokens),
        "no compress call over the threshold",
        (o) => {
          const after = estimateTokensRough(messages(o));
          return after >= o.thresholdTokens! ? `${estimateTokensRough(o.input)} → ${after} estimated tokens, threshold ${o.thresholdTokens}` : null;
        },
        (n) => `${n} passes brought the context below the threshold`,
      ),
  },
  {
    id: "CMP-5/latest-user-kept",
    rule: "CMP-5",
    level: "SHOULD",
    title: "the latest user message survives compression",
    scenarios: ORDINARY_SCENARIOS,
    probes: PROBES,
    evaluate: (runs) =>
      judge(
        ordinary(runs).filter((o) => o.output !== null && o.input.some((m) => m.role === "user")),
        "no compress call with a user message",
        (o) => {
          const latest = textOf(o.input.findLast((m) => m.role === "user"));
          return messages(o).some((m) => textOf(m).includes(latest)) ? null : "the latest user message is gone";
        },
        (n) => `latest user message kept in ${n} outputs`,
      ),
  },
  acceptsCheck("CMP-6/focus-accepted", "CMP-6", "focus", "compress accepts a focus_topic", ["focus-topic"]),
  {
    id: "CMP-7/focus-kept",
    rule: "CMP-7",
    level: "SHOULD",
    title: "an engine that uses focus_topic keeps more facts about the topic than without it",
    scenarios: [],
    probes: PROBES,
    evaluate(runs) {
      const all = observe(runs);
      const off = all.find((o) => o.label === "focus-off");
      const on = all.find((o) => o.label === "focus-on");
      if (!off || !on) return indeterminate("the focus pair was not recorded");
      if (off.output === null || on.output === null) return skipped("a focus pass failed (see CMP-6); nothing to compare");
      if (canonicalJson(off.output) === canonicalJson(on.output)) return skipped("the engine ignores focus_topic (identical output with and without it)");
      const kept = { off: focusFacts(off), on: focusFacts(on) };
      const evidence = [note(off, `${kept.off} facts kept without focus`), note(on, `${kept.on} facts kept with focus`)];
      if (kept.on < kept.off) return fail(`with focus_topic the output keeps ${kept.on} topic facts, without it ${kept.off}`, evidence);
      return { outcome: "pass", message: `focus keeps ${kept.on} topic facts (${kept.off} without)`, evidence };
    },
  },
  {
    id: "CMP-8/uid-kept",
    rule: "CMP-8",
    level: "SHOULD",
    title: "a message kept unchanged keeps its message_uid",
    scenarios: ORDINARY_SCENARIOS,
    probes: PROBES,
    evaluate: (runs) =>
      judge(
        ordinary(runs).filter((o) => o.output !== null),
        "no compress output to compare",
        (o) => {
          const uidsByWire = new Map<string, string[]>();
          for (const message of o.input) {
            if (typeof message.message_uid !== "string") continue;
            const key = canonicalJson(stripPersistenceFields(message));
            uidsByWire.set(key, [...(uidsByWire.get(key) ?? []), message.message_uid]);
          }
          for (const [index, message] of messages(o).entries()) {
            const uids = uidsByWire.get(canonicalJson(stripPersistenceFields(message)));
            if (uids && !uids.includes(message.message_uid as string)) return `element ${index} is an unchanged input message but lost its uid ${uids[0]}`;
          }
          return null;
        },
        (n) => `uids kept in ${n} outputs`,
      ),
  },
  acceptsCheck("CMP-9/preflight-without-uid", "CMP-9", "preflight", "a preflight compress whose current user message has no uid works", ["preflight"]),
  acceptsCheck("UID-2/missing-uid", "UID-2", "legacy-rows", "rows without a message_uid are accepted", ["schema-upgrade"]),
  acceptsCheck("UID-4/content-rewrite", "UID-4", "rewrite", "new content under a known uid is a new version, never a failure", ["content-rewrite"], rewriteProblem),
  acceptsCheck("UID-7/shared-uid", "UID-7", "shared-uid", "rows sharing a uid are accepted and the later one is the current version", ["duplicate-uids"], staleVersionProblem),
  acceptsCheck("TCU-3/repeated-tool-call-ids", "TCU-3", "repeated-ids", "repeated provider tool-call ids never orphan or mis-pair results", ["repeated-tool-call-ids"], (o) =>
    sequenceProblem(o, ["orphaned-result", "missing-tool-call-id", "unanswered-call", "split-batch"]),
  ),
];
