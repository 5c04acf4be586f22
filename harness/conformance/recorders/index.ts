import type { CompactionObserver } from "../../host/observers.ts";
import { sandboxWatch } from "./sandbox-watch.ts";

/**
 * The recorders every scenario play runs with — in certification players and in `ctxbench run`
 * alike — so a replayed trace holds the same evidence the checks read. Fresh ones per play.
 */
export function standardRecorders(): CompactionObserver[] {
  return [sandboxWatch()];
}
