import type { Probe } from "../types.ts";
import { call, compressCase, PROBE_CONTEXT_LENGTH, PROBE_MODEL, startSession } from "./call.ts";
import { buildConversation, jsonCopy } from "./conversation.ts";

const usage = (prompt: number) => ({ prompt_tokens: prompt, completion_tokens: 50, total_tokens: prompt + 50 });

/** LIFE-2: two sessions, a reset and a model change on one engine. */
export const lifecycleProbe: Probe = {
  id: "lifecycle",
  description: "Runs a session to its end, starts another, resets, changes the model, and keeps working.",
  async run(engine, context) {
    const first = buildConversation(context.seed + 50, { turns: 40, words: 60 }, "life-a");
    const second = buildConversation(context.seed + 51, { turns: 40, words: 60, toolEvery: 3, batch: 2 }, "life-b");
    await startSession(context, engine, "life-a");
    await call(context, engine, "update_from_response", [usage(6200)], "life-a", { case: "usage" });
    await call(context, engine, "should_compress", [6200], "life-a", { case: "should" });
    await compressCase(context, engine, "life-a", "compress-a", first);
    await call(context, engine, "on_session_end", ["life-a", jsonCopy(first)], "life-a", { case: "end" });
    await call(context, engine, "on_session_start", ["life-b", { home: context.home, platform: "cli", model: PROBE_MODEL, context_length: PROBE_CONTEXT_LENGTH, boundary_reason: "new", old_session_id: "life-a" }], "life-b", { case: "start-again" });
    await call(context, engine, "update_from_response", [usage(6400)], "life-b", { case: "usage" });
    await compressCase(context, engine, "life-b", "compress-b", second);
    await call(context, engine, "on_session_reset", [], "life-b", { case: "reset" });
    await call(context, engine, "update_model", [{ model: "probe-model-large", context_length: PROBE_CONTEXT_LENGTH * 2 }], "life-b", { case: "update-model" });
    await call(context, engine, "update_from_response", [usage(3000)], "life-b", { case: "usage" });
    await call(context, engine, "should_compress", [3000], "life-b", { case: "should" });
    await compressCase(context, engine, "life-b", "compress-after-reset", second);
    await call(context, engine, "on_session_end", ["life-b", jsonCopy(second)], "life-b", { case: "end" });
  },
};
