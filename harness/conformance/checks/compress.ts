import type { Message } from "../../contract/types.ts";
import { stripPersistenceFields } from "../../contract/persistence-fields.ts";
import { estimateTokensRough } from "../../contract/tokens.ts";
import { canonicalJson } from "../../trace/canonical-json.ts";
import { FOCUS_FACT_PREFIX } from "../probes/compress.ts";
import type { Check, CheckRun, Evaluation, Evidence } from "../types.ts";
import type { InputTag } from "./classify.ts";
import { attributedTo, judgeAll, outputDefects, TAG_RULES, type Judged, type OutputCheckId } from "./compress-judgement.ts";
import { CERTIFY_SCENARIOS, COMPRESS_PROBES } from "./sources.ts";
import { compressObservations, evidenceOf, fail, indeterminate, isMessageObject, pass, skipped, textOf, type CompressObservation } from "./helpers.ts";

const where = (o: CompressObservation) => `${o.label} (${o.source}, seed ${o.seed})`;
const note = (o: CompressObservation, text: string): Evidence => evidenceOf(o.source, o.event, `${where(o)}: ${text}`);
const judged = (runs: readonly CheckRun[]) => judgeAll(compressObservations(runs));
const messages = (o: CompressObservation) => (o.output ?? []).filter(isMessageObject) as Message[];

/** What the judged outputs covered: "31 outputs judged (12 probe calls, 19 host passes; seeds 1, 2, 3), 27 compacted their input". */
export function coverage(all: readonly Judged[], what = "outputs judged"): string {
  const probes = all.filter((j) => j.observation.event.type === "engine-call").length;
  const seeds = [...new Set(all.map((j) => j.observation.seed))].sort((a, b) => a - b);
  const changed = all.filter((j) => j.changed).length;
  return `${all.length} ${what} (${probes} probe calls, ${all.length - probes} host passes; seed${seeds.length === 1 ? "" : "s"} ${seeds.join(", ")}), ${changed} compacted their input`;
}

/** Fails with the first problems found (up to five as evidence), else passes with what was seen — or is indeterminate when nothing was really compacted. */
function verdict(problems: Array<{ o: CompressObservation; text: string }>, seen: readonly Judged[], none: string, what?: string): Evaluation {
  if (problems.length > 0) {
    const first = problems[0]!;
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : "";
    return fail(`${where(first.o)}: ${first.text}${more}`, problems.map(({ o, text }) => note(o, text)));
  }
  if (seen.length === 0) return indeterminate(none);
  if (!seen.some((j) => j.changed)) return indeterminate(`${coverage(seen, what)}: the engine's compaction path never ran, so nothing could fail`);
  return pass(coverage(seen, what));
}

function outputCheck(id: OutputCheckId, rule: string, title: string, relevant: (j: Judged) => boolean = () => true): Check {
  return {
    id,
    rule,
    level: "MUST",
    title,
    scenarios: CERTIFY_SCENARIOS,
    probes: COMPRESS_PROBES,
    evaluate(runs) {
      const all = judged(runs);
      const problems = all.flatMap((j) => outputDefects(j, all).filter((defect) => defect.check === id).map((defect) => ({ o: j.observation, text: defect.message })));
      return verdict(problems, all.filter(relevant), "no compress call was recorded");
    },
  };
}

/**
 * A tag's rule: failed by the defects its feature caused (compress-judgement.ts) and by what the
 * rule itself says about such inputs (`extra`). It reads what the output checks read, so the two
 * always agree on which defects the feature explains.
 */
function tagCheck(tag: InputTag, title: string, extra?: (o: CompressObservation) => string | null): Check {
  const { rule, check, feature } = TAG_RULES[tag];
  return {
    id: check,
    rule,
    level: "MUST",
    title,
    scenarios: CERTIFY_SCENARIOS,
    probes: COMPRESS_PROBES,
    evaluate(runs) {
      const all = judged(runs);
      const tagged = all.filter((j) => j.tags.has(tag));
      const problems = tagged.flatMap((j) => [
        ...attributedTo(tag, j, all).map(({ defect, because }) => ({ o: j.observation, text: `${defect.message} — caused by ${feature}: ${because}` })),
        ...[extra?.(j.observation) ?? null].filter((text): text is string => text !== null).map((text) => ({ o: j.observation, text })),
      ]);
      return verdict(problems, tagged, `no compress call with ${feature} was recorded`, `inputs with ${feature} judged`);
    },
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

/** UID-4: the rewritten message must not come back with its old content. */
function rewriteProblem(o: CompressObservation): string | null {
  const detail = o.event.type === "engine-call" ? (o.event.detail ?? {}) : {};
  const uid = detail["rewrittenUid"];
  const previous = detail["previousContent"];
  if (typeof uid !== "string" || typeof previous !== "string") return null;
  const kept = messages(o).find((message) => message.message_uid === uid);
  return kept && textOf(kept) === previous ? `uid ${uid} came back with its old content` : null;
}

/** A SHOULD check over every judged output with a list answer. */
function shouldCheck(id: string, rule: string, title: string, probesOnly: boolean, relevant: (j: Judged) => boolean, problem: (o: CompressObservation) => string | null): Check {
  return {
    id,
    rule,
    level: "SHOULD",
    title,
    scenarios: probesOnly ? [] : CERTIFY_SCENARIOS,
    probes: probesOnly ? ["compress"] : COMPRESS_PROBES,
    evaluate(runs) {
      const seen = judged(runs).filter((j) => j.observation.output !== null && relevant(j));
      const problems = seen.flatMap((j) => [problem(j.observation)].filter((text): text is string => text !== null).map((text) => ({ o: j.observation, text })));
      return verdict(problems, seen, "no compress output to judge");
    },
  };
}

const overThreshold = (j: Judged) => j.observation.thresholdTokens !== null && j.observation.thresholdTokens > 0 && estimateTokensRough(j.observation.input) > j.observation.thresholdTokens;

export const compressChecks: Check[] = [
  outputCheck("CMP-1/message-shape", "CMP-1", "compress returns a list of message objects with a known role and content a provider accepts"),
  outputCheck("CMP-2/tool-call-shape", "CMP-2", "tool calls are a non-empty list of {id, type, function: {name, arguments}} with ids unique in one response, and every tool result names its call"),
  outputCheck("CMP-2/orphaned-result", "CMP-2", "no tool result without an earlier matching call"),
  outputCheck("CMP-2/unanswered-call", "CMP-2", "every kept tool call keeps its result"),
  outputCheck("CMP-2/split-batch", "CMP-2", "a parallel tool-call batch is never split"),
  outputCheck("CMP-2/arguments-json", "CMP-2", "tool-call arguments that were JSON stay JSON"),
  outputCheck("CMP-3/system-prompt-kept", "CMP-3", "a leading system message survives with all its text", (j) => j.observation.input[0]?.role === "system"),
  outputCheck("CMP-4/no-growth", "CMP-4", "the output's token estimate is at most the input's"),
  shouldCheck("CMP-5/progress", "CMP-5", "an input over the threshold comes back below it", true, overThreshold, (o) => {
    const after = estimateTokensRough(messages(o));
    return after >= o.thresholdTokens! ? `${estimateTokensRough(o.input)} → ${after} estimated tokens, threshold ${o.thresholdTokens}` : null;
  }),
  shouldCheck("CMP-5/latest-user-kept", "CMP-5", "the latest user message survives compression", false, (j) => j.observation.input.some((m) => m.role === "user"), (o) => {
    const latest = textOf(o.input.findLast((m) => m.role === "user"));
    return messages(o).some((m) => textOf(m).includes(latest)) ? null : "the latest user message is gone";
  }),
  tagCheck("focus", "compress accepts a focus_topic"),
  {
    id: "CMP-7/focus-kept",
    rule: "CMP-7",
    level: "SHOULD",
    title: "an engine that uses focus_topic keeps more of the facts about the topic than without it",
    scenarios: [],
    probes: ["compress"],
    evaluate(runs) {
      const all = compressObservations(runs);
      const pairs = [...new Set(all.map((o) => o.seed))].map((seed) => ({ off: all.find((o) => o.seed === seed && o.label === "focus-off"), on: all.find((o) => o.seed === seed && o.label === "focus-on") }));
      const complete = pairs.filter((pair): pair is { off: CompressObservation; on: CompressObservation } => pair.off !== undefined && pair.on !== undefined);
      if (complete.length === 0) return indeterminate("the focus pair was not recorded");
      const compared = complete.filter(({ off, on }) => off.output !== null && on.output !== null);
      if (compared.length === 0) return skipped("a focus pass failed (see CMP-6); nothing to compare");
      const used = compared.filter(({ off, on }) => canonicalJson(off.output) !== canonicalJson(on.output));
      if (used.length === 0) return skipped("the engine ignores focus_topic (identical output with and without it)");
      for (const { off, on } of used) {
        const kept = { off: focusFacts(off), on: focusFacts(on) };
        if (kept.on < kept.off) return fail(`seed ${on.seed}: with focus_topic the output keeps ${kept.on} topic facts, without it ${kept.off}`, [note(off, `${kept.off} facts kept without focus`), note(on, `${kept.on} facts kept with focus`)]);
      }
      return pass(`${used.length} focus pair(s): the focused output keeps at least as many topic facts each time`);
    },
  },
  shouldCheck("CMP-8/uid-kept", "CMP-8", "a message kept unchanged keeps its message_uid", false, () => true, (o) => {
    // The uids each wire message has in the input; null for a copy without one (the current user
    // message before its flush may repeat an earlier message word for word).
    const uidsByWire = new Map<string, Array<string | null>>();
    for (const message of o.input) {
      const key = canonicalJson(stripPersistenceFields(message));
      uidsByWire.set(key, [...(uidsByWire.get(key) ?? []), typeof message.message_uid === "string" ? message.message_uid : null]);
    }
    for (const [index, message] of messages(o).entries()) {
      const uids = uidsByWire.get(canonicalJson(stripPersistenceFields(message)));
      if (uids && !uids.includes(null) && !uids.includes(message.message_uid as string)) return `element ${index} is an unchanged input message but lost its uid ${uids[0]}`;
    }
    return null;
  }),
  tagCheck("preflight", "a preflight compress whose current user message has no uid works as with one"),
  tagCheck("legacy-rows", "rows without a message_uid are accepted"),
  tagCheck("rewrite", "new content under a known uid is a new version, never a failure", rewriteProblem),
  tagCheck("shared-uid", "rows sharing a uid are accepted and the later one is the current version", staleVersionProblem),
  tagCheck("repeated-ids", "repeated provider tool-call ids never orphan or mis-pair results"),
];
