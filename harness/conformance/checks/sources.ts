/**
 * The runs the output and hook checks read. Every pass and every selection is judged wherever it
 * happens, so these are every scenario certification plays and every probe that calls the hook;
 * in a full certification they are played once and shared by all checks.
 */
export const CERTIFY_SCENARIOS = [
  "parallel-tool-calls",
  "huge-tool-outputs",
  "focus-topic",
  "preflight",
  "schema-upgrade",
  "content-rewrite",
  "duplicate-uids",
  "repeated-tool-call-ids",
  "concurrent-sessions",
  "compression-timeout",
] as const;

/** Probes that call compress (the discarded-pass probe's compress is thrown away by design and says nothing). */
export const COMPRESS_PROBES = ["compress", "lifecycle", "clone", "async-contexts", "shared-sessions", "selection"] as const;
export const SELECTION_PROBES = ["selection", "shared-sessions"] as const;
export const TURN_PROBES = ["turn-complete", "selection", "shared-sessions"] as const;
