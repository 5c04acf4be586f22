import type { ContextEngine } from "../contract/context-engine.ts";
import type { CompressOptions, Message } from "../contract/types.ts";
import { canonicalJson } from "../trace/canonical-json.ts";
import type { Trace } from "../trace/events.ts";
import { snapshotDirectory } from "./probes/discarded-pass.ts";

interface WatchedPass {
  input: string;
  before: Record<string, string>;
  after: Record<string, string> | null;
  settled: Promise<void>;
}

/**
 * THR-4 under the reference host: wraps the engine's compress so that every pass with a signal
 * gets a snapshot of the sandbox when it starts and, if the host aborted it, another once the
 * engine's work has settled. `annotate` writes them onto the host's "timeout" compaction events
 * (matched by input), so the check reads them from the trace.
 */
export function watchDiscardedPasses(engine: ContextEngine, home: string): { annotate(trace: Trace): Promise<void> } {
  const passes: WatchedPass[] = [];
  const original = engine.compress;
  const watched = function (this: ContextEngine, messages: Message[], current?: number | null, focus?: string | null, options?: CompressOptions) {
    const signal = options?.signal;
    if (!signal) return original.call(this, messages, current, focus, options);
    const pass: WatchedPass = { input: canonicalJson(messages), before: snapshotDirectory(home), after: null, settled: Promise.resolve() };
    passes.push(pass);
    const settle = () => {
      if (signal.aborted) pass.after = snapshotDirectory(home);
    };
    try {
      const result = original.call(this, messages, current, focus, options);
      pass.settled = Promise.resolve(result).then(settle, settle);
      return result;
    } catch (error) {
      pass.settled = Promise.resolve().then(settle);
      throw error;
    }
  };
  Object.defineProperty(engine, "compress", { value: watched, configurable: true, writable: true });
  return {
    async annotate(trace) {
      await Promise.all(passes.map((pass) => pass.settled));
      const pending = passes.filter((pass) => pass.after !== null);
      for (const event of trace) {
        if (event.type !== "compaction" || event.outcome !== "timeout") continue;
        const input = canonicalJson(event.input);
        const index = pending.findIndex((pass) => pass.input === input);
        if (index < 0) continue;
        const [pass] = pending.splice(index, 1);
        event.sandboxBefore = pass!.before;
        event.sandboxAfter = pass!.after!;
      }
    },
  };
}
