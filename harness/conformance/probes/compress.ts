import type { Message } from "../../contract/types.ts";
import type { Probe, ProbeContext } from "../types.ts";
import type { ContextEngine } from "../../contract/context-engine.ts";
import { compressCase, startSession } from "./call.ts";
import { buildConversation, jsonCopy, probeUid, withUniqueToolCallIds, type ConversationShape } from "./conversation.ts";

/** The focus topic of the CMP-7 case and the fact tokens planted about it. */
export const FOCUS_TOPIC = "orion";
export const FOCUS_FACT_PREFIX = "ORION-KEY-";

const OVER: ConversationShape = { turns: 40, words: 60 };

/** Tool outputs from tens of characters to tens of thousands, turns from a few words to hundreds: size-triggered code runs. */
export const MIXED_SIZES: ConversationShape = { turns: 24, words: { min: 3, max: 300 }, toolEvery: 2, batch: { min: 1, max: 4 }, resultChars: { min: 20, max: 30_000 } };

export interface CompressProbeCase {
  name: string;
  messages: Message[];
  focus?: string;
  /** The case that is this input without its special feature (compress-judgement.ts compares the two). */
  counterfactual?: string;
  /**
   * Played on one engine shared by all such cases (each in its own session), as one instance
   * serves many conversations: the cut-position cases need no fresh engine each, and an engine in
   * another process is not started fifty times.
   */
  sharedEngine?: boolean;
}

/**
 * The input of each compress case, from the seed. Cases name the rule they serve; a case with a
 * special feature (repeated ids, missing uids, a shared uid, a focus topic) has a twin without it,
 * so a defect can be blamed on the feature only when the twin does not show it.
 */
export function compressCases(seed: number): CompressProbeCase[] {
  const plain = buildConversation(seed, OVER, "plain");
  const tools = buildConversation(seed + 1, { turns: 30, words: 50, toolEvery: 3, batch: 3, resultChars: 400 }, "tools");
  const small = buildConversation(seed + 2, { turns: 3, words: 20 }, "small");
  const huge = buildConversation(seed + 3, { turns: 12, words: 30, toolEvery: 2, batch: 1, resultChars: 6000 }, "huge");
  const mixed = buildConversation(seed + 12, MIXED_SIZES, "mixed");
  const constant = buildConversation(seed + 4, { turns: 30, words: 40, toolEvery: 2, batch: 2, ids: "constant", resultChars: 300 }, "constant");
  const reused = buildConversation(seed + 5, { turns: 30, words: 40, toolEvery: 3, batch: 3, ids: "per-response", resultChars: 300 }, "reused");

  // UID-2: rows written before the uid column existed arrive without one.
  const legacyRows = buildConversation(seed + 6, { ...OVER, toolEvery: 4, batch: 2 }, "legacy");
  const legacy = legacyRows.map((message, index) => {
    if (index === 0 || index > 50) return message;
    const { message_uid: _dropped, ...rest } = message;
    return rest as Message;
  });
  // CMP-9: the current turn's user message before the turn-start flush has no uid yet.
  const before = buildConversation(seed + 7, { turns: 30, words: 50, toolEvery: 3, batch: 2, resultChars: 300 }, "preflight");
  const current = "Now summarise what we decided about the parser.";
  const preflight = [...before, { role: "user", content: current }];
  const flushed = [...before, { role: "user", content: current, message_uid: probeUid("preflight-current", 0) }];
  // UID-7: an edited copy re-appended next to the still-active earlier row, both under one uid.
  const sharedUid = probeUid("shared-row", 1);
  const sharedBase = buildConversation(seed + 8, OVER, "shared");
  const draft2 = { role: "user", content: "Draft v2: rename the ledger table to balances instead.", message_uid: sharedUid };
  const shared = [...sharedBase, { role: "user", content: "Draft v1: rename the ledger table to accounts.", message_uid: sharedUid }, draft2];
  const facts: Record<number, string> = {};
  for (let turn = 2; turn < 30; turn += 4) facts[turn] = `Note on ${FOCUS_TOPIC}: its deploy key is ${FOCUS_FACT_PREFIX}${1000 + turn}.`;
  const focus = buildConversation(seed + 9, { ...OVER, facts }, "focus");

  // Every turn a batch of two to six calls, ended where the host hands compress a list: after a
  // new user message (preflight), after a batch's results (post-tool), after an answer. The
  // batch sizes and endings put a fixed-size tail cut at many positions of a batch, as passes in
  // the field do.
  const tailOffsets = [2, 3, 4, 5, 6].flatMap((batch) => {
    const turns = buildConversation(seed + 13 + batch * 7, { turns: 12, words: { min: 5, max: 80 }, toolEvery: 1, batch, resultChars: { min: 40, max: 2000 } }, `batches-${batch}`);
    const next = { role: "user", content: `Turn 12: next question about batch ${batch}.`, message_uid: probeUid(`batches-${batch}-next`, 0) };
    return [
      { name: `batch-${batch}-after-user`, messages: [...turns, next] },
      { name: `batch-${batch}-after-results`, messages: turns.slice(0, -1) },
      { name: `batch-${batch}-after-answer`, messages: turns },
    ];
  });

  // A model that calls tools again after seeing results, reusing one id every time (rounds of
  // one to three calls), ended after a new user message, after a round's results and after an
  // answer, each beside its twin with unique ids.
  const roundCases = [0, 1, 2].flatMap((variant) => {
    const turns = buildConversation(seed + 14 + variant, { turns: 8, words: { min: 5, max: 60 }, toolEvery: 1, batch: { min: 1, max: 3 }, rounds: { min: 1, max: 3 }, ids: "constant", resultChars: { min: 40, max: 800 } }, `rounds-${variant}`);
    const next = { role: "user", content: "And the next step?", message_uid: probeUid(`rounds-${variant}-next`, 0) };
    const endings: Array<[string, Message[]]> = [
      ["after-user", [...turns, next]],
      ["after-results", turns.slice(0, -1)],
      ["after-answer", turns],
    ];
    return endings.flatMap(([ending, input]) => {
      const name = `tool-rounds-${variant}-${ending}`;
      return [
        { name, messages: input, counterfactual: `${name}/unique-ids` },
        { name: `${name}/unique-ids`, messages: withUniqueToolCallIds(input) },
      ];
    });
  });

  return [
    ...tailOffsets.map((item) => ({ ...item, sharedEngine: true })),
    ...roundCases.map((item) => ({ ...item, sharedEngine: true })),
    { name: "plain", messages: plain },
    { name: "tools", messages: tools },
    { name: "small", messages: small },
    { name: "huge-tool-outputs", messages: huge },
    { name: "mixed-sizes", messages: mixed },
    { name: "repeated-constant-id", messages: constant, counterfactual: "repeated-constant-id/unique-ids" },
    { name: "repeated-constant-id/unique-ids", messages: withUniqueToolCallIds(constant) },
    { name: "repeated-reused-ids", messages: reused, counterfactual: "repeated-reused-ids/unique-ids" },
    { name: "repeated-reused-ids/unique-ids", messages: withUniqueToolCallIds(reused) },
    { name: "legacy-without-uids", messages: legacy, counterfactual: "legacy-without-uids/with-uids" },
    { name: "legacy-without-uids/with-uids", messages: legacyRows },
    { name: "preflight", messages: preflight, counterfactual: "preflight/with-uid" },
    { name: "preflight/with-uid", messages: flushed },
    { name: "shared-uid", messages: shared, counterfactual: "shared-uid/one-row" },
    { name: "shared-uid/one-row", messages: [...sharedBase, draft2] },
    { name: "focus-off", messages: focus },
    { name: "focus-on", messages: focus, focus: FOCUS_TOPIC, counterfactual: "focus-off" },
  ];
}

async function freshSession(context: ProbeContext, first: { engine: ContextEngine | null }, session: string): Promise<ContextEngine> {
  const engine = first.engine ?? (await context.createEngine());
  first.engine = null;
  await startSession(context, engine, session);
  return engine;
}

/** CMP-*, ABC-5, UID-2/4/7, TCU-3: compress on a battery of inputs, each on a fresh engine but the cut-position cases, which share one. */
export const compressProbe: Probe = {
  id: "compress",
  description: "Compresses a battery of transcripts (plain, tools, parallel batches, mixed sizes, repeated ids, legacy rows, preflight, shared uids, focus), each special one beside its twin without the feature, on fresh engines.",
  async run(engine, context) {
    const first = { engine: engine as ContextEngine | null };
    let shared: ContextEngine | null = null;
    for (const item of compressCases(context.seed)) {
      const session = `compress-${item.name}`;
      let target: ContextEngine;
      if (item.sharedEngine && shared !== null) {
        await startSession(context, shared, session);
        target = shared;
      } else {
        target = await freshSession(context, first, session);
        if (item.sharedEngine) shared = target;
      }
      await compressCase(context, target, session, item.name, item.messages, item.focus ?? null, item.counterfactual ? { counterfactual: item.counterfactual } : {});
    }

    // ABC-5 and UID-4: three passes on one engine over a growing transcript, the last with a
    // content change under a known uid.
    const session = "compress-series";
    const series = await freshSession(context, first, session);
    const base = buildConversation(context.seed + 10, OVER, "series");
    const grown = [...base, ...buildConversation(context.seed + 11, { turns: 6, words: 60 }, "series-more").slice(1)];
    await compressCase(context, series, session, "series-1", base);
    await compressCase(context, series, session, "series-2", grown);
    const rewritten = jsonCopy(grown);
    const target = rewritten.findLastIndex((message) => message.role === "user");
    const previous = String(rewritten[target]!.content);
    rewritten[target] = { ...rewritten[target]!, content: `${previous} (edited: use the staging cluster instead)` };
    await compressCase(context, series, session, "series-3-rewrite", rewritten, null, {
      rewrittenUid: rewritten[target]!.message_uid,
      previousContent: previous,
      counterfactual: "series-3/no-rewrite",
    });
    // The twin: the same three passes on another engine, the last without the rewrite.
    const twinSession = "compress-series-twin";
    const twin = await freshSession(context, first, twinSession);
    await compressCase(context, twin, twinSession, "series-1/twin", base);
    await compressCase(context, twin, twinSession, "series-2/twin", grown);
    await compressCase(context, twin, twinSession, "series-3/no-rewrite", grown);
  },
};
