import type { Message } from "../../contract/types.ts";
import type { Probe, ProbeContext } from "../types.ts";
import type { ContextEngine } from "../../contract/context-engine.ts";
import { compressCase, startSession } from "./call.ts";
import { buildConversation, jsonCopy, probeUid, type ConversationShape } from "./conversation.ts";

/** The focus topic of the CMP-7 case and the fact tokens planted about it. */
export const FOCUS_TOPIC = "orion";
export const FOCUS_FACT_PREFIX = "ORION-KEY-";

const OVER: ConversationShape = { turns: 40, words: 60 };

/** The input of each compress case, from the seed. Cases name the rule they serve. */
export function compressCases(seed: number): Array<{ name: string; messages: Message[]; focus?: string }> {
  const plain = buildConversation(seed, OVER, "plain");
  const tools = buildConversation(seed + 1, { turns: 30, words: 50, toolEvery: 3, batch: 3, resultChars: 400 }, "tools");
  const small = buildConversation(seed + 2, { turns: 3, words: 20 }, "small");
  const huge = buildConversation(seed + 3, { turns: 12, words: 30, toolEvery: 2, batch: 1, resultChars: 6000 }, "huge");
  const constant = buildConversation(seed + 4, { turns: 30, words: 40, toolEvery: 2, batch: 2, ids: "constant", resultChars: 300 }, "constant");
  const reused = buildConversation(seed + 5, { turns: 30, words: 40, toolEvery: 3, batch: 3, ids: "reused", resultChars: 300 }, "reused");

  // UID-2: rows written before the uid column existed arrive without one.
  const legacy = buildConversation(seed + 6, OVER, "legacy").map((message, index) => {
    if (index === 0 || index > 50) return message;
    const { message_uid: _dropped, ...rest } = message;
    return rest as Message;
  });
  // CMP-9: the current turn's user message before the turn-start flush has no uid yet.
  const preflight = [...buildConversation(seed + 7, OVER, "preflight"), { role: "user", content: "Now summarise what we decided about the parser." }];
  // UID-7: an edited copy re-appended next to the still-active earlier row, both under one uid.
  const sharedUid = probeUid("shared-row", 1);
  const shared = [
    ...buildConversation(seed + 8, OVER, "shared"),
    { role: "user", content: "Draft v1: rename the ledger table to accounts.", message_uid: sharedUid },
    { role: "user", content: "Draft v2: rename the ledger table to balances instead.", message_uid: sharedUid },
  ];
  const facts: Record<number, string> = {};
  for (let turn = 2; turn < 30; turn += 4) facts[turn] = `Note on ${FOCUS_TOPIC}: its deploy key is ${FOCUS_FACT_PREFIX}${1000 + turn}.`;
  const focus = buildConversation(seed + 9, { ...OVER, facts }, "focus");

  return [
    { name: "plain", messages: plain },
    { name: "tools", messages: tools },
    { name: "small", messages: small },
    { name: "huge-tool-outputs", messages: huge },
    { name: "repeated-constant-id", messages: constant },
    { name: "repeated-reused-ids", messages: reused },
    { name: "legacy-without-uids", messages: legacy },
    { name: "preflight", messages: preflight },
    { name: "shared-uid", messages: shared },
    { name: "focus-off", messages: focus },
    { name: "focus-on", messages: focus, focus: FOCUS_TOPIC },
  ];
}

async function freshSession(context: ProbeContext, first: { engine: ContextEngine | null }, session: string): Promise<ContextEngine> {
  const engine = first.engine ?? (await context.createEngine());
  first.engine = null;
  await startSession(context, engine, session);
  return engine;
}

/** CMP-*, ABC-5, UID-2/4/7, TCU-3: compress on a battery of inputs, each on a fresh engine. */
export const compressProbe: Probe = {
  id: "compress",
  description: "Compresses a battery of transcripts (plain, tools, parallel batches, repeated ids, legacy rows, preflight, shared uids, focus) on fresh engines.",
  async run(engine, context) {
    const first = { engine: engine as ContextEngine | null };
    for (const item of compressCases(context.seed)) {
      const session = `compress-${item.name}`;
      const fresh = await freshSession(context, first, session);
      await compressCase(context, fresh, session, item.name, item.messages, item.focus ?? null);
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
    await compressCase(context, series, session, "series-3-rewrite", rewritten, null, { rewrittenUid: rewritten[target]!.message_uid, previousContent: previous });
  },
};
