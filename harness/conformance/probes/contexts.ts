import { conversationScope } from "../../contract/conversation-scope.ts";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Probe, ProbeContext } from "../types.ts";
import { compressCase, startSession } from "./call.ts";
import { buildConversation } from "./conversation.ts";

export { conversationScope };

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
      const name = `${via === "immediate" ? "sibling" : "timer"}-context`;
      await fromWorker(() => compressCase(workerContext, worker, "contexts", name, input, null, { condition: "other-context", counterfactual: "baseline" }), via);
    }
  },
};
