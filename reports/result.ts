/**
 * The one result JSON that `ctxbench certify` and `ctxbench bench` both produce and every report
 * is rendered from (ARCHITECTURE decision 8). No wall-clock times anywhere: only durations, in
 * fields whose name ends in `Ms`, so the same seed gives the same bytes apart from those.
 */
import { UsageError } from "../harness/util/errors.ts";
import { verdictOf as verdictPolicy } from "../harness/conformance/verdict.ts";
import { jsonInputProblem } from "../harness/util/input-limits.ts";
import { checksCoherenceProblem } from "./coherence.ts";
import { anyJson, array, boolean, literal, nullable, number, object, oneOf, string, taggedUnion, type Problem } from "./schema-dsl.ts";
import { goalBound, RERUN_ADVICE, type Goal, type GoalStatus, type Interval } from "../harness/bench/goals.ts";
import type { RunNoise } from "../harness/bench/noise.ts";
import type { Estimate } from "../harness/bench/stats.ts";

export { goalBound, RERUN_ADVICE, type Estimate, type Goal, type GoalStatus, type Interval, type RunNoise };
export const GOAL_STATUSES = ["met", "missed", "noisy"] as const satisfies readonly GoalStatus[];

export const RESULT_SCHEMA_VERSION = 1;

export const CHECK_OUTCOMES = ["pass", "fail", "error", "timeout", "skipped", "indeterminate"] as const;
export type CheckOutcome = (typeof CHECK_OUTCOMES)[number];
export const CHECK_LEVELS = ["MUST", "SHOULD"] as const;
export type CheckLevel = (typeof CHECK_LEVELS)[number];
export const VERDICTS = ["certified", "not-certified"] as const;
export type Verdict = (typeof VERDICTS)[number];

export interface NamedVersion {
  name: string;
  version: string;
}

export interface RunInfo {
  /** ctxbench itself. */
  tool: NamedVersion;
  /** `process.version`, e.g. "v20.20.2". */
  node: string;
  /** e.g. "linux 6.1.0 x64". */
  os: string;
  /** CPU model string. */
  cpu: string;
  cores: number;
  /** null outside a git checkout. */
  gitSha: string | null;
  seed: number;
  /** The command line that produced this result, so it can be rerun. */
  command: string;
  /** Every engine this result speaks of, with its version. */
  engines: NamedVersion[];
  /** Where the engines ran: player processes (the default), or this process (`--no-isolate`). */
  isolation?: "players" | "in-process";
}

export interface Evidence {
  /** Trace events that show the outcome. */
  events: unknown[];
  note?: string;
}

export interface Repro {
  scenario: string;
  seed: number;
  command: string;
}

export interface CheckResult {
  /** Stable id starting with its rule, e.g. "CMP-2/orphaned-result". */
  id: string;
  /** RULES.md id, e.g. "CMP-2". */
  rule: string;
  title: string;
  level: CheckLevel;
  outcome: CheckOutcome;
  /** From the engine's expectations file; null when none is listed (pass is expected). */
  expected: CheckOutcome | null;
  unexpected: boolean;
  message: string;
  evidence: Evidence;
  durationMs: number;
  skipReason?: string;
  repro?: Repro;
}

export interface CheckSummary {
  total: number;
  pass: number;
  fail: number;
  error: number;
  timeout: number;
  skipped: number;
  indeterminate: number;
  unexpected: number;
}

export const INTEGRITY_KINDS = ["intrinsic-replaced", "forged-frames", "outside-write"] as const;

/** Something that makes a certification untrustworthy (docs/architecture.md, "Integrity"): the verdict is then not certified. */
export interface IntegrityFinding {
  kind: (typeof INTEGRITY_KINDS)[number];
  message: string;
}

export interface Certification {
  engine: NamedVersion;
  verdict: Verdict;
  checks: CheckResult[];
  summary: CheckSummary;
  /** Present when something made the run untrustworthy. */
  integrity?: IntegrityFinding[];
}

export interface OverheadVariant {
  /** e.g. "no-engine", "inheriting", "select-null", "engine:compressor". */
  variant: string;
  /** The engine measured: null for the host's own variants (no engine, inheriting, select-null). */
  engine: string | null;
  stage: "selection" | "assembly";
  medianNs: Estimate;
  madNs: number;
  p99Ns: number;
  samples: number;
  /** null for the "no-engine" row itself. */
  ratioToNoEngine: Estimate | null;
  /** ns per request beyond the no-engine row (the figure to read when that row costs a few ns); null for it. */
  addedNs: Estimate | null;
  /** Cost relative to JSON.stringify of the same request; null when not measured for this stage. */
  ratioToStringify: number | null;
  /** Why this row's figures cannot be trusted (see harness/bench/reliability.ts); null when they can. */
  unreliable: string | null;
}

interface SuiteBase {
  warnings: string[];
  goals: Goal[];
  /** How steady the machine was while the suite measured; null for a suite that times nothing. */
  noise: RunNoise | null;
  durationMs: number;
}

export interface OverheadSuite extends SuiteBase {
  suite: "overhead";
  messagesPerRequest: number;
  stringifyFloorNs: number;
  /** The requests built with no engine and with an inheriting engine were byte-identical. */
  requestsByteIdentical: boolean;
  variants: OverheadVariant[];
}

export interface CacheEngineResult {
  engine: string;
  turns: number;
  hitRatio: number;
  ceilingHitRatio: number;
  prefixBreaksPer100Turns: number;
  needlessSelectionChanges: number;
  /** Cache-hit ratio of each turn, in turn order (the line chart). */
  perTurnHitRatio: number[];
}

export interface CacheSuite extends SuiteBase {
  suite: "cache";
  scenarios: string[];
  engines: CacheEngineResult[];
}

export interface ThroughputPoint {
  messages: number;
  /** One compress() pass. */
  medianMs: Estimate;
  messagesPerSecond: number;
  tokensPerSecond: number;
  /** Input tokens ÷ output tokens (2 = halved). */
  compressionRatio: number;
  /** Heap grown by one pass over a fully collected heap: a lower bound of the pass's peak. */
  peakMemoryBytes: number;
  unreliable: string | null;
}

export interface ThroughputEngineResult {
  engine: string;
  /** Exponent k of time ∝ messages^k fitted over the points; null with fewer than two points. */
  fittedExponent: Estimate | null;
  points: ThroughputPoint[];
}

/** The reference host's work around one pass (snapshot, judging the output, the commit): a harness figure. */
export interface HostSharePoint {
  messages: number;
  medianMs: Estimate;
  unreliable: string | null;
}

export interface ThroughputSuite extends SuiteBase {
  suite: "throughput";
  engines: ThroughputEngineResult[];
  hostShare: HostSharePoint[];
}

export interface QualityEngineResult {
  engine: string;
  recallActive: number;
  /** null when not measured: `recallViaToolsNotMeasured` says why. */
  recallViaTools: number | null;
  /** The tool asked, its query parameter, and how it was found (plugin.yaml's hint or the tool's schema). */
  searchTool: { name: string; parameter: string; chosenBy: "hint" | "schema" } | null;
  /** Why recall through tools was not measured ("no tools", or what the tools lack); null when it was. */
  recallViaToolsNotMeasured: string | null;
  tokensRemovedRatio: number;
  compactions: number;
}

export interface QualitySuite extends SuiteBase {
  suite: "quality";
  canaries: number;
  engines: QualityEngineResult[];
}

export interface StoreSuite extends SuiteBase {
  suite: "store";
  appendsPerSecond: Estimate;
  restoresPerSecond: Estimate;
  legacyRows: number;
  opensToConverge: number;
  longestWriteLockMs: number;
}

export type BenchSuiteResult = OverheadSuite | CacheSuite | ThroughputSuite | QualitySuite | StoreSuite;
export type BenchSuiteName = BenchSuiteResult["suite"];

export interface ResultJson {
  schemaVersion: typeof RESULT_SCHEMA_VERSION;
  runInfo: RunInfo;
  certifications: Certification[];
  benchmarks: BenchSuiteResult[];
}

// ---- the shape, once, for validation, the JSON Schema and canonical key order ----

const count = () => number({ integer: true, minimum: 0 });
const ratio = () => number({ minimum: 0 });
const namedVersion = object({ name: string({ minLength: 1 }), version: string() });

const runInfoShape = object(
  {
    tool: namedVersion,
    node: string(),
    os: string(),
    cpu: string(),
    cores: number({ integer: true, minimum: 1 }),
    gitSha: nullable(string()),
    seed: number({ integer: true }),
    command: string(),
    engines: array(namedVersion),
    isolation: oneOf(["players", "in-process"]),
  },
  ["isolation"],
);

const outcome = oneOf(CHECK_OUTCOMES);

const checkShape = object(
  {
    id: string({ minLength: 1 }),
    rule: string({ minLength: 1 }),
    title: string(),
    level: oneOf(CHECK_LEVELS),
    outcome,
    expected: nullable(outcome),
    unexpected: boolean(),
    message: string(),
    evidence: object({ events: array(anyJson()), note: string() }, ["note"]),
    durationMs: number({ minimum: 0 }),
    skipReason: string(),
    repro: object({ scenario: string(), seed: number({ integer: true }), command: string() }),
  },
  ["skipReason", "repro"],
);

const summaryShape = object({
  total: count(),
  pass: count(),
  fail: count(),
  error: count(),
  timeout: count(),
  skipped: count(),
  indeterminate: count(),
  unexpected: count(),
});

const integrityShape = array(object({ kind: oneOf(INTEGRITY_KINDS), message: string({ minLength: 1 }) }));

const certifyJsonShape = object(
  {
    schemaVersion: literal(RESULT_SCHEMA_VERSION),
    runInfo: runInfoShape,
    engine: namedVersion,
    verdict: oneOf(VERDICTS),
    checks: array(checkShape),
    integrity: integrityShape,
  },
  ["integrity"],
);

export const certificationShape = object(
  {
    engine: namedVersion,
    verdict: oneOf(VERDICTS),
    checks: array(checkShape),
    summary: summaryShape,
    integrity: integrityShape,
  },
  ["integrity"],
);

const goalShape = object(
  {
    id: string({ minLength: 1 }),
    engine: nullable(string({ minLength: 1 })),
    description: string(),
    limit: number(),
    floor: boolean(),
    measured: number(),
    interval: nullable(object({ low: number(), high: number() })),
    unit: string(),
    status: oneOf(GOAL_STATUSES),
    reason: string(),
  },
  ["floor", "reason"],
);

const estimate = (minimum?: number) => {
  const value = () => (minimum === undefined ? number() : number({ minimum }));
  return object({ value: value(), low: value(), high: value() });
};

const noiseShape = object({
  calibrationSpread: number({ minimum: 0 }),
  limit: number({ minimum: 0 }),
  samples: count(),
  noisy: boolean(),
});

const suiteBase = { warnings: array(string()), goals: array(goalShape), noise: nullable(noiseShape), durationMs: number({ minimum: 0 }) };

const overheadShape = object({
  suite: literal("overhead"),
  messagesPerRequest: count(),
  stringifyFloorNs: ratio(),
  requestsByteIdentical: boolean(),
  variants: array(
    object({
      variant: string({ minLength: 1 }),
      engine: nullable(string()),
      stage: oneOf(["selection", "assembly"]),
      medianNs: estimate(0),
      madNs: ratio(),
      p99Ns: ratio(),
      samples: count(),
      ratioToNoEngine: nullable(estimate(0)),
      addedNs: nullable(estimate()),
      ratioToStringify: nullable(ratio()),
      unreliable: nullable(string()),
    }),
  ),
  ...suiteBase,
});

const cacheShape = object({
  suite: literal("cache"),
  scenarios: array(string()),
  engines: array(
    object({
      engine: string({ minLength: 1 }),
      turns: count(),
      hitRatio: number({ minimum: 0, maximum: 1 }),
      ceilingHitRatio: number({ minimum: 0, maximum: 1 }),
      prefixBreaksPer100Turns: ratio(),
      needlessSelectionChanges: count(),
      perTurnHitRatio: array(number({ minimum: 0, maximum: 1 })),
    }),
  ),
  ...suiteBase,
});

const throughputShape = object({
  suite: literal("throughput"),
  engines: array(
    object({
      engine: string({ minLength: 1 }),
      fittedExponent: nullable(estimate()),
      points: array(
        object({
          messages: count(),
          medianMs: estimate(0),
          messagesPerSecond: ratio(),
          tokensPerSecond: ratio(),
          compressionRatio: ratio(),
          peakMemoryBytes: count(),
          unreliable: nullable(string()),
        }),
      ),
    }),
  ),
  hostShare: array(object({ messages: count(), medianMs: estimate(0), unreliable: nullable(string()) })),
  ...suiteBase,
});

const qualityShape = object({
  suite: literal("quality"),
  canaries: count(),
  engines: array(
    object({
      engine: string({ minLength: 1 }),
      recallActive: number({ minimum: 0, maximum: 1 }),
      recallViaTools: nullable(number({ minimum: 0, maximum: 1 })),
      searchTool: nullable(object({ name: string({ minLength: 1 }), parameter: string({ minLength: 1 }), chosenBy: oneOf(["hint", "schema"]) })),
      recallViaToolsNotMeasured: nullable(string()),
      tokensRemovedRatio: number({ minimum: 0, maximum: 1 }),
      compactions: count(),
    }),
  ),
  ...suiteBase,
});

const storeShape = object({
  suite: literal("store"),
  appendsPerSecond: estimate(0),
  restoresPerSecond: estimate(0),
  legacyRows: count(),
  opensToConverge: count(),
  longestWriteLockMs: ratio(),
  ...suiteBase,
});

export const resultShape = object(
  {
    schemaVersion: literal(RESULT_SCHEMA_VERSION),
    runInfo: runInfoShape,
    certifications: array(certificationShape),
    benchmarks: array(
      taggedUnion("suite", { overhead: overheadShape, cache: cacheShape, throughput: throughputShape, quality: qualityShape, store: storeShape }),
    ),
  },
  [],
  "ctxbench result: certifications and benchmarks of context-engine plugins, with the machine they ran on.",
);

export type ValidationOutcome = { ok: true; result: ResultJson } | { ok: false; problem: Problem };

/** Checks a parsed value against the result shape; on failure names the JSON path of the first problem. */
export function validateResult(value: unknown): ValidationOutcome {
  const problem = resultShape.check(value, "$") ?? consistencyProblem(value as ResultJson);
  return problem ? { ok: false, problem } : { ok: true, result: value as ResultJson };
}

/**
 * Parses and validates result text (or one engine's certify JSON); throws a ResultError naming
 * the source (a file name, when given) and the JSON path of the problem.
 */
export function parseResult(text: string, source?: string): ResultJson {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ResultError({ path: "$", message: `not JSON: ${(error as Error).message}` }, source);
  }
  // Before the shape: validating and rendering recurse, so a pathologically deep file is refused by name first.
  const tooDeep = jsonInputProblem(value);
  if (tooDeep) throw new ResultError(tooDeep, source);
  const outcome = isCertifyJson(value) ? validateCertifyJson(value) : validateResult(value);
  if (!outcome.ok) throw new ResultError(outcome.problem, source);
  const incoherent = checksCoherenceProblem(outcome.result);
  if (incoherent) throw new ResultError(incoherent, source);
  return outcome.result;
}

/** The one-engine shape `certify --format json` prints: it has `engine` where a result has `certifications`. */
function isCertifyJson(value: unknown): boolean {
  return typeof value === "object" && value !== null && "engine" in value && !("certifications" in value);
}

/** Validates a certify JSON and lifts it into a result with one certification (summary recomputed). */
export function validateCertifyJson(value: unknown): ValidationOutcome {
  const problem = certifyJsonShape.check(value, "$");
  if (problem) return { ok: false, problem };
  const certify = value as CertifyJson;
  const certification = certificationOf(certify.engine, certify.checks, certify.integrity ?? []);
  if (certification.verdict !== certify.verdict)
    return { ok: false, problem: { path: "$.verdict", message: `is "${certify.verdict}" but the checks give "${certification.verdict}"` } };
  return { ok: true, result: { schemaVersion: RESULT_SCHEMA_VERSION, runInfo: certify.runInfo, certifications: [certification], benchmarks: [] } };
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

/** The JSON Schema (draft 2020-12) published as reports/result.schema.json. */
export function resultJsonSchema(): Record<string, unknown> {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: "ctxbench result",
    ...resultShape.jsonSchema(),
  };
}

/** The result with keys in schema order (evidence keys sorted): the bytes the json format writes. */
export function canonicalResult(result: ResultJson): ResultJson {
  return resultShape.canonical(result) as ResultJson;
}

/** Facts the shape alone cannot state: summaries and verdicts agree with their checks. */
function consistencyProblem(result: ResultJson): Problem | null {
  for (const [index, certification] of result.certifications.entries()) {
    const path = `$.certifications[${index}]`;
    const expected = summarizeChecks(certification.checks);
    for (const key of Object.keys(expected) as (keyof CheckSummary)[]) {
      if (certification.summary[key] !== expected[key])
        return { path: `${path}.summary.${key}`, message: `is ${certification.summary[key]} but the checks count ${expected[key]}` };
    }
    const verdict = verdictOf(certification.checks, certification.integrity ?? []);
    if (certification.verdict !== verdict) return { path: `${path}.verdict`, message: `is "${certification.verdict}" but the checks and integrity findings give "${verdict}"` };
  }
  for (const [index, suite] of result.benchmarks.entries()) {
    if (suite.suite !== "quality") continue;
    for (const [at, engine] of suite.engines.entries()) {
      const path = `$.benchmarks[${index}].engines[${at}]`;
      const measured = engine.recallViaTools !== null;
      if (measured !== (engine.searchTool !== null)) return { path: `${path}.searchTool`, message: measured ? "is null but recall via tools was measured" : "names a tool but recall via tools was not measured" };
      if (measured === (engine.recallViaToolsNotMeasured !== null)) return { path: `${path}.recallViaToolsNotMeasured`, message: measured ? "gives a reason although recall via tools was measured" : "is null but recall via tools was not measured" };
    }
  }
  return null;
}

export function summarizeChecks(checks: readonly CheckResult[]): CheckSummary {
  const summary: CheckSummary = { total: checks.length, pass: 0, fail: 0, error: 0, timeout: 0, skipped: 0, indeterminate: 0, unexpected: 0 };
  for (const check of checks) {
    summary[check.outcome] += 1;
    if (check.unexpected) summary.unexpected += 1;
  }
  return summary;
}

/** The verdict policy of harness/conformance/verdict.ts over reported checks and integrity findings. */
export function verdictOf(checks: readonly CheckResult[], integrity: readonly IntegrityFinding[] = []): Verdict {
  return verdictPolicy(checks, integrity.length);
}

/** Builds a certification whose verdict and summary are computed from its checks and integrity findings. */
export function certificationOf(engine: NamedVersion, checks: CheckResult[], integrity: readonly IntegrityFinding[] = []): Certification {
  return { engine, verdict: verdictOf(checks, integrity), checks, summary: summarizeChecks(checks), ...(integrity.length > 0 ? { integrity: [...integrity] } : {}) };
}

/** What `ctxbench certify --format json` prints for one engine. */
export interface CertifyJson {
  schemaVersion: typeof RESULT_SCHEMA_VERSION;
  runInfo: RunInfo;
  engine: NamedVersion;
  verdict: Verdict;
  checks: CheckResult[];
  integrity?: IntegrityFinding[];
}

export function certifyJsonOf(runInfo: RunInfo, certification: Certification): CertifyJson {
  const canonical = certificationShape.canonical(certification) as Certification;
  return {
    schemaVersion: RESULT_SCHEMA_VERSION,
    runInfo: runInfoShape.canonical(runInfo) as RunInfo,
    engine: canonical.engine,
    verdict: canonical.verdict,
    checks: canonical.checks,
    ...(canonical.integrity !== undefined ? { integrity: canonical.integrity } : {}),
  };
}
