import type { CompactionObserver } from "../../host/observers.ts";
import { snapshotDirectory } from "../probes/discarded-pass.ts";

/**
 * THR-4 under the reference host: the engine's sandbox is snapshotted as each pass starts and,
 * for a pass the host discards, once the engine's work has settled; the pair is written into the
 * trace as a `sandbox-watch` event during the play, so `ctxbench run` records it too.
 */
export function sandboxWatch(): CompactionObserver {
  const before = new Map<number, Record<string, string>>();
  return {
    passStarted(pass) {
      before.set(pass.pass, snapshotDirectory(pass.home));
    },
    passSettled(pass, { settled, discarded }) {
      const taken = before.get(pass.pass);
      before.delete(pass.pass);
      if (!discarded || taken === undefined) return;
      pass.recorder.record({ type: "sandbox-watch", session: pass.session, pass: pass.pass, before: taken, after: settled ? snapshotDirectory(pass.home) : null });
    },
  };
}
