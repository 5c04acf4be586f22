/**
 * Reading a result: the schema, then what the schema alone cannot state. Every derived field is
 * recomputed from what it derives from (unexpected from outcome and expectation, summary and
 * verdict from the checks), every check is one of this ctxbench's catalogue at its own level, and
 * a whole selection still gives the check-set digest it was run under. A file that disagrees is
 * refused, so a hand-edited `outcome: fail, unexpected: false` is not certified.
 */
import { findBenchSuite } from "../bench/registry.ts";
import { CHECKS } from "../conformance/checks/index.ts";
import type { Certification, CheckSummary } from "../conformance/check-result.ts";
import { checkSetDigest, isUnexpected, summarizeChecks, verdictOf } from "../conformance/verdict.ts";
import { UsageError } from "../util/errors.ts";
import { jsonInputProblem } from "../util/input-limits.ts";
import { PACKAGE_JSON } from "../util/package-root.ts";
import type { Problem } from "../util/schema.ts";
import { RESULT_SCHEMA_VERSION, resultSchemaOf, type ResultJson } from "./schema.ts";

export type ValidationOutcome = { ok: true; result: ResultJson } | { ok: false; problem: Problem };

/** The checks a result may name: id, rule and level of each. */
export type Catalogue = readonly { id: string; rule: string; level: string }[];

export interface ValidateOptions {
  /** Default: this ctxbench's check catalogue. */
  catalogue?: Catalogue;
}

/** Checks a parsed value against the result schema and its consistency rules; names the JSON path of the first problem. */
export function validateResult(value: unknown, options: ValidateOptions = {}): ValidationOutcome {
  const problem = versionProblem(value) ?? resultSchemaOf().check(value, "$") ?? consistencyProblem(value as ResultJson, options.catalogue ?? CHECKS);
  return problem ? { ok: false, problem } : { ok: true, result: value as ResultJson };
}

/** Text that is not a valid result (exit 2): `<source>: <JSON path>: <problem>`. */
export class ResultError extends UsageError {
  constructor(
    readonly problem: Problem,
    readonly source?: string,
  ) {
    super(`${source === undefined ? "" : `${source}: `}${problem.path}: ${problem.message}`);
  }
}

/** Parses and validates result text; throws a ResultError naming the source (a file name, when given) and the JSON path. */
export function parseResult(text: string, source?: string, options: ValidateOptions = {}): ResultJson {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ResultError({ path: "$", message: `not JSON: ${(error as Error).message}` }, source);
  }
  // Before the shape: validating and rendering recurse, so a pathologically deep file is refused by name first.
  const tooDeep = jsonInputProblem(value);
  if (tooDeep) throw new ResultError(tooDeep, source);
  const outcome = validateResult(value, options);
  if (!outcome.ok) throw new ResultError(outcome.problem, source);
  return outcome.result;
}

/** A result of an older ctxbench says so, instead of failing on its first missing field. */
function versionProblem(value: unknown): Problem | null {
  if (typeof value !== "object" || value === null || !("schemaVersion" in value)) return null;
  const version = (value as { schemaVersion: unknown }).schemaVersion;
  if (typeof version !== "number" || version === RESULT_SCHEMA_VERSION) return null;
  return {
    path: "$.schemaVersion",
    message: `is ${version}, but this ctxbench reads results of schema version ${RESULT_SCHEMA_VERSION}${version < RESULT_SCHEMA_VERSION ? " (rerun with this ctxbench to get one)" : " (a newer ctxbench wrote it)"}`,
  };
}

function consistencyProblem(result: ResultJson, catalogue: Catalogue): Problem | null {
  const known = new Map(catalogue.map((check) => [check.id, check]));
  for (const [index, certification] of result.certifications.entries()) {
    const problem = certificationProblem(certification, `$.certifications[${index}]`, known);
    if (problem) return problem;
  }
  for (const [index, suite] of result.benchmarks.entries()) {
    const problem = findBenchSuite(suite.suite)?.consistency?.(suite, `$.benchmarks[${index}]`) ?? null;
    if (problem) return problem;
  }
  return null;
}

function certificationProblem(certification: Certification, path: string, known: ReadonlyMap<string, Catalogue[number]>): Problem | null {
  const seen = new Set<string>();
  for (const [index, check] of certification.checks.entries()) {
    const at = `${path}.checks[${index}]`;
    if (seen.has(check.id)) return { path: `${at}.id`, message: `check "${check.id}" appears twice in the certification of "${certification.engine.name}"` };
    seen.add(check.id);
    const entry = known.get(check.id);
    if (entry === undefined) return { path: `${at}.id`, message: `"${check.id}" is not a check of ctxbench ${PACKAGE_JSON.version}` };
    if (check.rule !== entry.rule) return { path: `${at}.rule`, message: `is "${check.rule}", but check "${check.id}" belongs to rule ${entry.rule}` };
    if (check.level !== entry.level) return { path: `${at}.level`, message: `is "${check.level}", but check "${check.id}" is ${entry.level}` };
    const unexpected = isUnexpected(check.outcome, check.expected);
    if (check.unexpected !== unexpected)
      return {
        path: `${at}.unexpected`,
        message: `is ${check.unexpected}, but outcome "${check.outcome}" with ${check.expected === null ? "no expectation listed" : `expected "${check.expected}"`} is ${unexpected ? "unexpected" : "expected"}`,
      };
  }
  const expected = summarizeChecks(certification.checks);
  for (const key of Object.keys(expected) as (keyof CheckSummary)[]) {
    if (certification.summary[key] !== expected[key]) return { path: `${path}.summary.${key}`, message: `is ${certification.summary[key]} but the checks count ${expected[key]}` };
  }
  const verdict = verdictOf(certification.checks, certification.integrity?.length ?? 0);
  if (certification.verdict !== verdict) return { path: `${path}.verdict`, message: `is "${certification.verdict}" but the checks and integrity findings give "${verdict}"` };
  const { shard } = certification;
  if (shard !== null && shard.index > shard.count) return { path: `${path}.shard.index`, message: `is ${shard.index}, past the shard count ${shard.count}` };
  if (shard === null && checkSetDigest(certification.checks) !== certification.checkSetDigest)
    return { path: `${path}.checkSetDigest`, message: `does not match its ${certification.checks.length} checks: a check of the selection is missing, or one was added` };
  return null;
}
