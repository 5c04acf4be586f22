// The result JSON: its schema, types derived from it, reading and the machine it ran on.
export { RESULT_SCHEMA_VERSION, canonicalResult, resultJsonSchema, resultSchemaOf, type ResultJson } from "./schema.ts";
export { parseResult, validateResult, ResultError, type Catalogue, type ValidateOptions, type ValidationOutcome } from "./validate.ts";
export { collectRunInfo, gitSha, runBoundsSchema, runInfoSchema, type RunBounds, type RunInfo, type RunInfoInput } from "./run-info.ts";
export {
  CHECK_LEVELS,
  CHECK_OUTCOMES,
  INTEGRITY_KINDS,
  VERDICTS,
  type Certification,
  type CheckLevel,
  type CheckOutcome,
  type CheckResult,
  type CheckSummary,
  type IntegrityFinding,
  type NamedVersion,
  type Repro,
  type Shard,
  type Verdict,
} from "../conformance/check-result.ts";
export { certificationOf, checkSetDigest, summarizeChecks, verdictOf, type CertificationScope } from "../conformance/verdict.ts";
export { goalBound, GOAL_STATUSES, RERUN_ADVICE, type Goal, type GoalStatus, type Interval } from "../bench/goals.ts";
export type { RunNoise } from "../bench/noise.ts";
export type { Estimate } from "../bench/stats.ts";
export type { BenchSuiteName, BenchSuiteResult } from "../bench/registry.ts";
