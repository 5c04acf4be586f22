import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { ContextEngine } from "../../contract/context-engine.ts";
import { readEngineState } from "../../trace/recorder.ts";
import type { Probe } from "../types.ts";
import { call, compressCase, PROBE_CONTEXT_LENGTH, PROBE_MODEL, startSession } from "./call.ts";
import { buildConversation } from "./conversation.ts";

const usage = (prompt: number) => ({ prompt_tokens: prompt, completion_tokens: 50, total_tokens: prompt + 50 });

/** REG-6: a clone must be a distinct engine with the same configuration and its own budget. */
export const cloneProbe: Probe = {
  id: "clone",
  description: "Clones the engine, then drives the clone and the original apart (usage, model, compress) and compares their state.",
  async run(engine, context) {
    await startSession(context, engine, "original");
    await call(context, engine, "update_from_response", [usage(1500)], "original", { case: "original-usage" });
    const cloned = await call<ContextEngine>(
      context,
      engine,
      "clone_for_agent",
      [],
      "original",
      { case: "clone", originalThresholdPercent: engine.threshold_percent },
      (outcome) => {
        if (!outcome.ok || outcome.value === null || typeof outcome.value !== "object") return {};
        const clone = outcome.value as ContextEngine;
        return { sameObject: clone === engine, cloneThresholdPercent: (clone as { threshold_percent?: unknown }).threshold_percent ?? null, cloneState: readEngineState(clone) };
      },
    );
    if (!cloned.ok || cloned.value === null || typeof cloned.value !== "object") return;
    const clone = cloned.value;
    const before = readEngineState(engine);
    const cloneHome = join(context.home, "clone");
    mkdirSync(cloneHome, { recursive: true });
    await call(context, clone, "on_session_start", ["clone", { home: cloneHome, platform: "cli", model: PROBE_MODEL, context_length: PROBE_CONTEXT_LENGTH }], "clone", { case: "clone-start" });
    await call(context, clone, "update_model", [{ model: "probe-model-large", context_length: PROBE_CONTEXT_LENGTH * 4 }], "clone", { case: "clone-model" });
    await call(context, clone, "update_from_response", [usage(9999)], "clone", { case: "clone-usage" });
    await compressCase(context, clone, "clone", "clone-compress", buildConversation(context.seed + 40, { turns: 40, words: 60 }, "clone"));
    await call(context, engine, "get_status", [], "original", { case: "original-after", originalBefore: before, originalAfter: readEngineState(engine) });
  },
};
