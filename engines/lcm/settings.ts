import type { Summarizer } from "../shared/summarizer.ts";

/** Everything configurable about the lcm engine; every field has a default. */
export interface LcmSettings {
  /** Summarizer for leaf and condensed nodes; the bundled extractive one by default. */
  summarizer?: Summarizer;
  /**
   * Explicit database file. By default the store lives at `<home>/lcm/lcm.sqlite`, `home`
   * being the sandbox directory the host passes to `on_session_start`.
   */
  dbPath?: string;
  /** Largest raw chunk (rough tokens) one leaf summary covers. */
  leafChunkTokens?: number;
  /** Size target of one leaf summary. */
  leafTargetTokens?: number;
  /** Size target of one condensed summary. */
  condensedTargetTokens?: number;
  /** How many same-depth nodes in a row are condensed into one node of the next depth. */
  condensationFanin?: number;
  /** Most raw messages the fresh tail keeps. */
  freshTailCount?: number;
  /** Fresh-tail budget as a share of `threshold_tokens`. */
  freshTailRatio?: number;
  /** Most excerpts one retrieval adds to a request. */
  retrievalExcerpts?: number;
  /** Characters kept of one retrieved message. */
  retrievalExcerptChars?: number;
  context_length?: number;
  threshold_percent?: number;
}

export type ResolvedLcmSettings = Required<Omit<LcmSettings, "summarizer" | "dbPath" | "context_length" | "threshold_percent">>;

/** Defaults follow the published LCM ports where they apply (leaf chunk 20K, fan-in 4, tail 64). */
export const DEFAULT_LCM_SETTINGS: ResolvedLcmSettings = {
  leafChunkTokens: 20_000,
  leafTargetTokens: 1_200,
  condensedTargetTokens: 2_000,
  condensationFanin: 4,
  freshTailCount: 64,
  freshTailRatio: 0.25,
  retrievalExcerpts: 3,
  retrievalExcerptChars: 600,
};

export function resolveSettings(settings: LcmSettings): ResolvedLcmSettings {
  const out = { ...DEFAULT_LCM_SETTINGS };
  for (const key of Object.keys(out) as Array<keyof ResolvedLcmSettings>) {
    const value = settings[key];
    if (typeof value === "number" && Number.isFinite(value) && value > 0) out[key] = value;
  }
  out.condensationFanin = Math.max(2, Math.floor(out.condensationFanin));
  return out;
}
