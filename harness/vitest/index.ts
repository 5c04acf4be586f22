// `ctxbench/vitest`: the conformance checks as vitest tests, for an engine author's own suite.
export { describeConformance, ConformanceFailure } from "./describe-conformance.ts";
export type { ConformanceOptions } from "./conformance-plan.ts";
