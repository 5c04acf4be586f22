import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import type { Probe } from "../types.ts";
import { call, startSession } from "./call.ts";
import { buildConversation, jsonCopy } from "./conversation.ts";

const usage = (prompt: number) => ({ prompt_tokens: prompt, completion_tokens: 50, total_tokens: prompt + 50 });

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
