import type { Message } from "../../contract/types.ts";
import type { Probe } from "../types.ts";
import { call, compressCase, startSession } from "./call.ts";
import { buildConversation, jsonCopy } from "./conversation.ts";
import { implementsHook } from "./hooks.ts";
import { digestValue } from "../../trace/canonical-json.ts";

const digest = (value: unknown) => digestValue(value).digest;

const usage = (prompt: number) => ({ prompt_tokens: prompt, completion_tokens: 50, total_tokens: prompt + 50 });

/** Canary tokens planted per session by the shared-sessions probe. */
export function sessionCanary(session: string, n: number): string {
  return `CANARY-${session.toUpperCase()}-${4100 + n}`;
}

/** THR-2: two sessions on one engine, interleaved and concurrent; each plants its own canaries. */
export const sharedSessionsProbe: Probe = {
  id: "shared-sessions",
  description: "Interleaves two sessions on one engine (turns, concurrent compress, selections), each with planted canary tokens.",
  async run(engine, context) {
    const sessions = ["alpha", "beta"];
    const transcripts = new Map<string, Message[]>();
    for (const [index, session] of sessions.entries()) {
      const facts: Record<number, string> = {};
      for (const turn of [0, 5, 20, 38]) facts[turn] = `The ${session} vault code is ${sessionCanary(session, turn)}.`;
      transcripts.set(session, buildConversation(context.seed + 70 + index, { turns: 40, words: 60, toolEvery: 5, batch: 2, facts }, session));
    }
    for (const session of sessions) await startSession(context, engine, session);
    for (const session of sessions) await call(context, engine, "update_from_response", [usage(6300)], session, { case: "usage" });
    if (implementsHook(engine, "on_turn_complete")) {
      for (const session of sessions) {
        const info = { turn_id: `${session}-1`, task_id: session, api_call_count: 1, interrupted: false, failed: false, turn_exit_reason: "completed" };
        await call(context, engine, "on_turn_complete", [jsonCopy(transcripts.get(session)!), usage(6300), info], session, { case: "turn" });
      }
    }
    await Promise.all(sessions.map((session) => compressCase(context, engine, session, "concurrent", transcripts.get(session)!)));
    if (implementsHook(engine, "select_context")) {
      for (const session of [...sessions].reverse()) {
        const request = jsonCopy(transcripts.get(session)!);
        const options = { conversation_messages: jsonCopy(request), incoming_message: jsonCopy(request.findLast((m) => m.role === "user") ?? null), budget_tokens: engine.context_length };
        const before = { request: digest(request), conversation: digest(options.conversation_messages), incoming: digest(options.incoming_message) };
        await call(context, engine, "select_context", [request, options], session, { case: "select", request: jsonCopy(request), before }, () => ({
          after: { request: digest(request), conversation: digest(options.conversation_messages), incoming: digest(options.incoming_message) },
          requestAfter: jsonCopy(request),
        }));
      }
    }
    for (const session of [...sessions].reverse()) await compressCase(context, engine, session, "again", transcripts.get(session)!);
  },
};
