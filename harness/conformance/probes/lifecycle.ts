import { AsyncLocalStorage } from "node:async_hooks";
import { mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { createHash } from "node:crypto";
import type { ContextEngine } from "../../contract/context-engine.ts";
import type { Message } from "../../contract/types.ts";
import { readEngineState } from "../../trace/recorder.ts";
import type { Probe, ProbeContext } from "../types.ts";
import { call, compressCase, PROBE_CONTEXT_LENGTH, PROBE_MODEL, startSession } from "./call.ts";
import { buildConversation, jsonCopy } from "./conversation.ts";
import { implementsHook } from "./hooks.ts";

const usage = (prompt: number) => ({ prompt_tokens: prompt, completion_tokens: 50, total_tokens: prompt + 50 });

/** REG-6: a clone must be a distinct engine with the same configuration and its own budget. */
export const cloneProbe: Probe = {
  id: "clone",
  description: "Clones the engine, then drives the clone and the original apart (usage, model, compress) and compares their state.",
  async run(engine, context) {
    await startSession(context, engine, "original");
    await call(context, engine, "update_from_response", [usage(1500)], "original", { case: "original-usage" });
    const cloned = await call<ContextEngine>(context, engine, "clone_for_agent", [], "original", {
      case: "clone",
      originalThresholdPercent: engine.threshold_percent,
    });
    if (!cloned.ok || cloned.value === null || typeof cloned.value !== "object") return;
    const clone = cloned.value;
    const last = context.recorder.events[context.recorder.size - 1];
    if (last?.type === "engine-call" && last.detail) {
      last.detail["sameObject"] = clone === engine;
      last.detail["cloneThresholdPercent"] = (clone as { threshold_percent?: unknown }).threshold_percent ?? null;
      last.detail["cloneState"] = readEngineState(clone);
    }
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

/**
 * The conversation's ambient async context, as the thread a conversation runs on upstream: the
 * THR-1 probe plays a session inside it, then calls the engine from outside it, as a pooled
 * worker would. An engine must not depend on it.
 */
export const conversationScope = new AsyncLocalStorage<string>();

/** Runs `task` from a fresh callback outside the conversation's context, as a pooled worker would. */
function fromWorker<T>(task: () => Promise<T>, via: "immediate" | "timer"): Promise<T> {
  return conversationScope.exit(
    () =>
      new Promise<T>((resolve, reject) => {
        const run = () => void task().then(resolve, reject);
        if (via === "immediate") setImmediate(run);
        else setTimeout(run, 0);
      }),
  );
}

/** THR-1: the same work, started in the conversation's context and continued from others, gives the same answer. */
export const asyncContextProbe: Probe = {
  id: "async-contexts",
  description: "Starts a session inside the conversation's async context and compresses from outside it (sibling callbacks, timers); compares with a same-context baseline.",
  async run(engine, context) {
    const input = buildConversation(context.seed + 60, { turns: 40, words: 60, toolEvery: 4, batch: 2 }, "contexts");
    const homeFor = (name: string) => {
      const home = join(context.home, name);
      mkdirSync(home, { recursive: true });
      return { ...context, home } as ProbeContext;
    };
    const baselineContext = homeFor("baseline");
    await conversationScope.run("contexts", async () => {
      await startSession(baselineContext, engine, "contexts");
      await compressCase(baselineContext, engine, "contexts", "baseline", input);
    });
    for (const via of ["immediate", "timer"] as const) {
      const worker = await context.createEngine();
      const workerContext = homeFor(via);
      await conversationScope.run("contexts", () => startSession(workerContext, worker, "contexts"));
      await fromWorker(() => compressCase(workerContext, worker, "contexts", `${via === "immediate" ? "sibling" : "timer"}-context`, input), via);
    }
  },
};

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
        await call(context, engine, "select_context", [request, { conversation_messages: jsonCopy(request), incoming_message: jsonCopy(request[request.length - 1]), budget_tokens: 4000 }], session, { case: "select" });
      }
    }
    for (const session of [...sessions].reverse()) await compressCase(context, engine, session, "again", transcripts.get(session)!);
  },
};

/** Every file under a directory with the sha256 of its bytes (a snapshot of durable state). */
export function snapshotDirectory(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    let entries: string[];
    try {
      entries = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry);
      const stats = statSync(path, { throwIfNoEntry: false });
      if (!stats) continue;
      if (stats.isDirectory()) walk(path);
      else files[relative(root, path)] = createHash("sha256").update(readFileSync(path)).digest("hex").slice(0, 16);
    }
  };
  walk(root);
  return files;
}

/**
 * THR-4: a compress whose pass the host abandons at its deadline. The signal is aborted right
 * after the engine's synchronous part returns, the result is discarded, and the sandbox is
 * compared once the engine's work has settled.
 */
export const timeoutProbe: Probe = {
  id: "discarded-pass",
  description: "Snapshots the sandbox, starts a compress whose signal is aborted as soon as it yields, discards the result, and snapshots again once it settles.",
  async run(engine, context) {
    const session = "timeout";
    const input = buildConversation(context.seed + 80, { turns: 40, words: 60, toolEvery: 4, batch: 2 }, "timeout");
    await startSession(context, engine, session);
    await call(context, engine, "update_from_response", [usage(6500)], session, { case: "usage" });
    const before = snapshotDirectory(context.home);
    const controller = new AbortController();
    const args = [jsonCopy(input), null, null, { signal: controller.signal }];
    const detail: Record<string, unknown> = { case: "discarded", before };
    const pending = context.recorder.callHook(engine, "compress", args, { session, detail });
    controller.abort(new Error("host compaction timeout"));
    const outcome = await pending;
    detail["discarded"] = true;
    detail["settledWith"] = outcome.ok ? "value" : "error";
    // Let timers and I/O the engine scheduled run out before looking at the disk.
    await new Promise((resolve) => setTimeout(resolve, 20));
    detail["after"] = snapshotDirectory(context.home);
  },
};
