import type { Probe } from "../types.ts";
import { identityProbe, usageProbe } from "./basics.ts";
import { compressProbe } from "./compress.ts";
import { selectionProbe, toolsProbe, turnCompleteProbe } from "./hooks.ts";
import { cloneProbe } from "./clone.ts";
import { asyncContextProbe } from "./contexts.ts";
import { timeoutProbe } from "./discarded-pass.ts";
import { lifecycleProbe } from "./lifecycle.ts";
import { sharedSessionsProbe } from "./sessions.ts";

export const PROBES: ReadonlyMap<string, Probe> = new Map(
  [identityProbe, usageProbe, compressProbe, selectionProbe, turnCompleteProbe, toolsProbe, cloneProbe, lifecycleProbe, asyncContextProbe, sharedSessionsProbe, timeoutProbe].map((probe) => [probe.id, probe]),
);
