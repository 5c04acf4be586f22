/**
 * The default bound of one scenario or probe run, ms. A leaf of its own: the CLI's options and the
 * bounds read it without loading the conformance runner (and its whole graph) at start-up.
 */
export const DEFAULT_RUN_TIMEOUT_MS = 20_000;
