import type { Message } from "../../contract/types.ts";
import { estimateTokensRough } from "../../contract/tokens.ts";
import { ruleOfFinding, validateMessage, validateSequence, type SequenceFinding } from "../../contract/validate.ts";
import { tagObservations, type InputTag } from "./classify.ts";
import { isMessageObject, textOf, type CompressObservation } from "./helpers.ts";
import { jsonOf } from "./message-json.ts";
import { withOccurrenceIds } from "./truth-view.ts";

/**
 * How compress outputs are judged and to which rule a defect is attributed.
 *
 * 1. Every observed pass (probe calls and host passes of every trigger and tag) is judged by
 *    every rule that constrains an output: CMP-1 (message shapes), CMP-2 (tool-call shapes,
 *    pairing, batches, argument JSON), CMP-3 (system prompt), CMP-4 (growth). A defect of the
 *    output is always its rule's failure, whatever the input.
 * 2. An input's special feature (its tag: repeated provider ids, a current user message without a
 *    uid, legacy rows, a shared uid, a rewrite, a focus topic) decides which *additional* rule is
 *    named — TCU-3, CMP-9, UID-2, UID-7, UID-4, CMP-6 — and only when the feature caused the
 *    defect: the same engine, given the input without the feature, does not show it. Probe cases
 *    have a twin without the feature (the counterfactual, compared directly); a host pass has
 *    none, so the comparison is with every judged input that has no special feature at all: a
 *    defect kind the engine also shows on plain inputs is not blamed on the feature. So a batch split by a cut that
 *    steps back one message is CMP-2 alone, on unique and repeated ids alike; a result paired
 *    with the wrong call because two calls share an id is TCU-3 (and CMP-2 when the provider can
 *    see it too).
 * 3. For TCU-3 the pairing is judged as it really is: each call occurrence of the input gets an
 *    id of its own (truth-view.ts), which shows a mis-pairing the repeated ids hide from a provider.
 * 4. No answer at all (a throw, a timeout, a value that is not a list) is the failure of the tag
 *    rules that explain it, and CMP-1's ("compress returns a list") when none does.
 */

export type OutputCheckId =
  | "CMP-1/message-shape"
  | "CMP-2/tool-call-shape"
  | "CMP-2/orphaned-result"
  | "CMP-2/unanswered-call"
  | "CMP-2/split-batch"
  | "CMP-2/arguments-json"
  | "CMP-3/system-prompt-kept"
  | "CMP-4/no-growth";

export interface Defect {
  /** The output check it fails; null for no answer, which CMP-1 names only when no tag explains it. */
  check: OutputCheckId | null;
  /** What went wrong, compared across inputs to decide what caused it. */
  kind: string;
  message: string;
}

export interface Judged {
  observation: CompressObservation;
  tags: Set<InputTag>;
  /** The output's defects as a provider sees them. */
  defects: Defect[];
  /** Pairing defects under the true pairing of call occurrences (the provider's pairing defects when ids do not repeat). */
  truePairing: Defect[];
  /** The output differs from the input: a real compaction, not a pass-through. */
  changed: boolean;
}

/** The rule and check each tag names when it caused a defect. */
export const TAG_RULES: Readonly<Record<InputTag, { rule: string; check: string; feature: string }>> = {
  "repeated-ids": { rule: "TCU-3", check: "TCU-3/repeated-tool-call-ids", feature: "repeated provider tool-call ids" },
  preflight: { rule: "CMP-9", check: "CMP-9/preflight-without-uid", feature: "a current user message without a uid" },
  "legacy-rows": { rule: "UID-2", check: "UID-2/missing-uid", feature: "rows without a uid" },
  "shared-uid": { rule: "UID-7", check: "UID-7/shared-uid", feature: "rows sharing a uid" },
  rewrite: { rule: "UID-4", check: "UID-4/content-rewrite", feature: "new content under a known uid" },
  focus: { rule: "CMP-6", check: "CMP-6/focus-accepted", feature: "a focus_topic" },
  "other-context": { rule: "THR-1", check: "THR-1/no-context-affinity", feature: "a call from outside the session's async context" },
};

const PAIRING_CHECK = {
  "orphaned-result": "CMP-2/orphaned-result",
  "unanswered-call": "CMP-2/unanswered-call",
  "split-batch": "CMP-2/split-batch",
} as const;

const standalone = new WeakMap<CompressObservation, Omit<Judged, "tags">>();
const tagged = new WeakMap<CompressObservation, Set<InputTag>>();

/**
 * Judge observations: tags from the whole sequence (a rewrite needs the earlier inputs of its run
 * and session), defects per observation. Both depend on one run alone, so both are cached: every
 * check reading the run reuses them.
 */
export function judgeAll(observations: readonly CompressObservation[]): Judged[] {
  if (observations.some((observation) => !tagged.has(observation))) for (const { observation, tags } of tagObservations(observations)) tagged.set(observation, tags);
  return observations.map((observation) => {
    let judged = standalone.get(observation);
    if (judged === undefined) {
      judged = judgeOne(observation);
      standalone.set(observation, judged);
    }
    return { ...judged, tags: tagged.get(observation)! };
  });
}

function judgeOne(o: CompressObservation): Omit<Judged, "tags"> {
  if (o.failure !== null) return { observation: o, defects: [{ check: null, kind: "no-answer", message: `compress failed: ${o.failure}` }], truePairing: [], changed: false };
  if (o.output === null) return { observation: o, defects: [{ check: null, kind: "no-answer", message: o.refusal ?? "compress did not return a list" }], truePairing: [], changed: false };
  const output = o.output;
  const defects: Defect[] = [];
  const copied = copiedElements(o.input, output);
  for (const [index, message] of output.entries()) {
    if (copied.has(index)) continue; // what the engine passed through unchanged is not its fault
    for (const finding of validateMessage(message, index)) {
      if (finding.severity !== "error") continue;
      if (ruleOfFinding(finding.kind) === "CMP-1") defects.push({ check: "CMP-1/message-shape", kind: finding.kind, message: finding.detail });
      else if (finding.kind === "invalid-arguments-json") continue; // judged against the input below
      else defects.push({ check: "CMP-2/tool-call-shape", kind: finding.kind, message: finding.detail });
    }
  }
  if (!output.every(isMessageObject)) return { observation: o, defects, truePairing: [], changed: true };
  const messages = output as Message[];
  defects.push(...repeatedIdDefects(o.input, messages, copied));
  const inputFindings = validateSequence(o.input);
  const had = new Set(inputFindings.map(findingKey));
  for (const finding of validateSequence(messages)) {
    if (finding.severity !== "error" || had.has(findingKey(finding))) continue;
    if (finding.kind === "invalid-arguments-json") defects.push({ check: "CMP-2/arguments-json", kind: finding.kind, message: finding.detail });
    else if (finding.kind in PAIRING_CHECK) defects.push({ check: PAIRING_CHECK[finding.kind as keyof typeof PAIRING_CHECK], kind: finding.kind, message: finding.detail });
  }
  const system = systemDefect(o.input, messages);
  if (system) defects.push(system);
  const before = estimateTokensRough(o.input);
  const after = estimateTokensRough(messages);
  if (after > before) defects.push({ check: "CMP-4/no-growth", kind: "grew", message: `grew from ${before} to ${after} estimated tokens` });
  return { observation: o, defects, truePairing: truePairingDefects(o.input, messages, defects), changed: !sameList(o.input, messages) };
}

/** The output is the input: same length, each message a copy (the host's "no progress"). */
function sameList(input: readonly Message[], output: readonly Message[]): boolean {
  return input.length === output.length && output.every((message, index) => message === input[index] || jsonOf(message) === jsonOf(input[index]));
}

/** A finding's identity for "was it already in the input": its kind and the call id it is about. */
const findingKey = (finding: SequenceFinding) => `${finding.kind}:${finding.callId ?? ""}`;

/**
 * Output indices that are exact copies of an input message (identity fields included). A copy
 * keeps its keys in order (every copy path does), so plain JSON recognises it at native speed.
 */
export function copiedElements(input: readonly Message[], output: readonly unknown[]): Set<number> {
  const inputs = new Set(input.map(jsonOf));
  const copied = new Set<number>();
  for (const [index, message] of output.entries()) if (inputs.has(jsonOf(message))) copied.add(index);
  return copied;
}

/** An id repeated inside one output message that no input message repeats inside itself (ids unique within one response). */
function repeatedIdDefects(input: readonly Message[], output: readonly Message[], copied: Set<number>): Defect[] {
  const allowed = new Set<string>();
  for (const message of input) {
    const seen = new Set<unknown>();
    for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
      if (seen.has(call?.id)) allowed.add(String(call?.id));
      seen.add(call?.id);
    }
  }
  const defects: Defect[] = [];
  for (const [index, message] of output.entries()) {
    if (copied.has(index)) continue;
    for (const finding of validateMessage(message, index)) {
      if (finding.kind !== "duplicate-call-id" || allowed.has(finding.callId ?? "")) continue;
      defects.push({ check: "CMP-2/tool-call-shape", kind: finding.kind, message: `${finding.detail}; expected ids unique within one response (no input message repeats "${finding.callId}")` });
    }
  }
  return defects;
}

function systemDefect(input: readonly Message[], output: readonly Message[]): Defect | null {
  if (input[0]?.role !== "system") return null;
  const first = output[0];
  if (!first || first.role !== "system") return { check: "CMP-3/system-prompt-kept", kind: "system-lost", message: `the output starts with ${first ? `a ${String(first.role)} message` : "nothing"}, not the system message` };
  return textOf(first).includes(textOf(input[0])) ? null : { check: "CMP-3/system-prompt-kept", kind: "system-text-lost", message: "the system message lost text" };
}

/** Pairing defects under the true pairing (only differs from the provider's view when ids repeat). */
function truePairingDefects(input: readonly Message[], output: readonly Message[], providerDefects: readonly Defect[]): Defect[] {
  const pairing = providerDefects.filter((defect) => defect.kind in PAIRING_CHECK);
  if (!hasRepeatedIds(input)) return pairing;
  const renamedInput = withOccurrenceIds(input, input);
  const had = new Set(validateSequence(renamedInput).map(findingKey));
  return validateSequence(withOccurrenceIds(input, output))
    .filter((finding) => finding.severity === "error" && finding.kind in PAIRING_CHECK && !had.has(findingKey(finding)))
    .map((finding) => ({ check: PAIRING_CHECK[finding.kind as keyof typeof PAIRING_CHECK], kind: finding.kind, message: readableOccurrences(finding.detail, input) }));
}

function hasRepeatedIds(input: readonly Message[]): boolean {
  const seen = new Set<string>();
  for (const message of input) {
    for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
      if (seen.has(call?.id)) return true;
      seen.add(call?.id);
    }
  }
  return false;
}

/** `"occurrence-12-1"` → `"call_0" (call 2 of input element 12)`, so a message names ids the author knows. */
function readableOccurrences(detail: string, input: readonly Message[]): string {
  return detail.replace(/"occurrence-(\d+)-(\d+)"/g, (_whole, element: string, position: string) => {
    const id = input[Number(element)]?.tool_calls?.[Number(position)]?.id;
    return `"${String(id)}" (call ${Number(position) + 1} of input element ${element})`;
  });
}

export interface Attribution {
  defect: Defect;
  /** Why the tag is to blame: what the engine did without the feature. */
  because: string;
}

/**
 * The defects a tag's rule weighs. TCU-3 is about pairing: the true pairing's defects, and no
 * answer at all; the other features' rules say such inputs work as any other (any defect).
 */
function candidatesFor(tag: InputTag, judged: Judged): Defect[] {
  return tag === "repeated-ids" ? [...judged.defects.filter((defect) => defect.kind === "no-answer"), ...judged.truePairing] : judged.defects;
}

interface Evidence {
  /** Defect kinds seen on inputs with no special feature. */
  plain: Set<string>;
  plainCount: number;
  /** Per tag, the defect kinds seen on inputs whose only feature it is. */
  alone: Map<InputTag, Set<string>>;
}

const evidenceCache = new WeakMap<readonly Judged[], Evidence>();

function evidenceOf(all: readonly Judged[]): Evidence {
  let evidence = evidenceCache.get(all);
  if (evidence !== undefined) return evidence;
  evidence = { plain: new Set(), plainCount: 0, alone: new Map() };
  for (const judged of all) {
    if (judged.tags.size === 0) {
      evidence.plainCount++;
      for (const defect of judged.defects) evidence.plain.add(defect.kind);
    } else if (judged.tags.size === 1) {
      const [tag] = judged.tags as Set<InputTag>;
      const kinds = evidence.alone.get(tag!) ?? new Set<string>();
      for (const defect of candidatesFor(tag!, judged)) kinds.add(defect.kind);
      evidence.alone.set(tag!, kinds);
    }
  }
  evidenceCache.set(all, evidence);
  return evidence;
}

/**
 * Which of an observation's defects its tag caused (rule 2 above). With a twin, the defects the
 * twin does not show. Without one, the defects no plain input shows; and when the input has
 * several features, only those that some input having this feature alone shows, if any feature
 * is known to cause them alone (a preflight pass over a shared uid that throws for want of the
 * current message's uid is CMP-9's, not UID-7's).
 */
export function attributedTo(tag: InputTag, judged: Judged, all: readonly Judged[]): Attribution[] {
  if (!judged.tags.has(tag)) return [];
  const candidates = candidatesFor(tag, judged);
  if (candidates.length === 0) return [];
  const { feature } = TAG_RULES[tag];
  const o = judged.observation;
  const twin = o.counterfactual === null ? undefined : all.find((other) => other.observation.seed === o.seed && other.observation.source === o.source && other.observation.label === o.counterfactual);
  if (twin !== undefined) {
    const seen = new Set(twin.defects.map((defect) => defect.kind));
    return candidates.filter((defect) => !seen.has(defect.kind)).map((defect) => ({ defect, because: `its twin without ${feature} (${twin.observation.label}) did not show it` }));
  }
  const evidence = evidenceOf(all);
  return candidates
    .filter((defect) => !evidence.plain.has(defect.kind))
    .filter((defect) => {
      if (judged.tags.size < 2) return true;
      const explaining = [...judged.tags].filter((other) => evidence.alone.get(other)?.has(defect.kind) === true);
      return explaining.length === 0 || explaining.includes(tag);
    })
    .map((defect) => ({ defect, because: `none of the ${evidence.plainCount} judged inputs without any special feature showed it` }));
}

/** Defects CMP-1..4 name for one observation: every output defect, and no answer when no tag explains it. */
export function outputDefects(judged: Judged, all: readonly Judged[]): Array<Defect & { check: OutputCheckId }> {
  const named: Array<Defect & { check: OutputCheckId }> = [];
  for (const defect of judged.defects) {
    if (defect.check !== null) named.push(defect as Defect & { check: OutputCheckId });
    else if (![...judged.tags].some((tag) => attributedTo(tag, judged, all).some((entry) => entry.defect === defect))) named.push({ ...defect, check: "CMP-1/message-shape" });
  }
  return named;
}
