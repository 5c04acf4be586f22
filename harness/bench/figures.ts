import type { BaselineFigure } from "./baseline.ts";
import { findBenchSuite } from "./registry.ts";
import type { SuiteResultBase } from "./suite.ts";

/** The figures of a suite result that a baseline remembers and a later run is gated on (its suite says which). */
export function figuresOf(suite: SuiteResultBase): Record<string, BaselineFigure> {
  return findBenchSuite(suite.suite)?.figures(suite) ?? {};
}
