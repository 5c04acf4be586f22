import type { Probe } from "../types.ts";
import { identityProbe, usageProbe } from "./basics.ts";
import { compressProbe } from "./compress.ts";
import { selectionProbe, toolsProbe, turnCompleteProbe } from "./hooks.ts";
import { asyncContextProbe, cloneProbe, lifecycleProbe, sharedSessionsProbe, timeoutProbe } from "./lifecycle.ts";

export const PROBES: ReadonlyMap<string, Probe> = new Map(
  [identityProbe, usageProbe, compressProbe, selectionProbe, turnCompleteProbe, toolsProbe, cloneProbe, lifecycleProbe, asyncContextProbe, sharedSessionsProbe, timeoutProbe].map((probe) => [probe.id, probe]),
);
