/**
 * What a certification reports, as schema fragments: one check's result, the summary, and one
 * engine's certification with what makes shards and reruns comparable (shard, seeds, check-set
 * digest). The result schema (harness/result/) composes these; the types are derived from them.
 */
import { anyJson, array, boolean, integer, named, nullable, number, object, oneOf, optional, string, type Infer } from "../util/schema.ts";

export const CHECK_OUTCOMES = ["pass", "fail", "error", "timeout", "skipped", "indeterminate"] as const;
export type CheckOutcome = (typeof CHECK_OUTCOMES)[number];
export const CHECK_LEVELS = ["MUST", "SHOULD"] as const;
export type CheckLevel = (typeof CHECK_LEVELS)[number];
export const VERDICTS = ["certified", "not-certified"] as const;
export type Verdict = (typeof VERDICTS)[number];

export const namedVersionSchema = named("NamedVersion", object({ name: string({ minLength: 1 }), version: string() }));
export type NamedVersion = Infer<typeof namedVersionSchema>;

const outcome = oneOf(CHECK_OUTCOMES);
const count = () => integer({ minimum: 0 });

export const reproSchema = object({ scenario: string(), seed: integer(), command: string() });
/** How to replay an unexpected outcome: the run that shows it, its seed, the command. */
export type Repro = Infer<typeof reproSchema>;

export const checkResultSchema = named(
  "CheckResult",
  object({
    /** Stable id starting with its rule, e.g. "CMP-2/orphaned-result". */
    id: string({ minLength: 1 }),
    /** RULES.md id, e.g. "CMP-2". */
    rule: string({ minLength: 1 }),
    title: string(),
    level: oneOf(CHECK_LEVELS),
    outcome,
    /** From the engine's expectations file; null when none is listed (pass is expected). */
    expected: nullable(outcome),
    /** Decided by the outcome and `expected` alone; readers recompute it and refuse a file that disagrees. */
    unexpected: boolean(),
    message: string(),
    /** Trace events that show the outcome (abridged), with a short note. */
    evidence: object({ events: array(anyJson()), note: optional(string()) }),
    durationMs: number({ minimum: 0 }),
    skipReason: optional(string()),
    repro: optional(reproSchema),
  }),
);
/** One check's result against one engine: the one type every output reports. */
export type CheckResult = Infer<typeof checkResultSchema>;

export const checkSummarySchema = object({
  total: count(),
  pass: count(),
  fail: count(),
  error: count(),
  timeout: count(),
  skipped: count(),
  indeterminate: count(),
  unexpected: count(),
});
export type CheckSummary = Infer<typeof checkSummarySchema>;

export const shardSchema = object({ index: integer({ minimum: 1 }), count: integer({ minimum: 1 }) });
/** Shard `index` of `count` (1-based), as `certify --shard i/n` takes it. */
export type Shard = Infer<typeof shardSchema>;

export const INTEGRITY_KINDS = ["intrinsic-replaced", "forged-frames", "outside-write"] as const;

export const integrityFindingSchema = object({ kind: oneOf(INTEGRITY_KINDS), message: string({ minLength: 1 }) });
/** Something that makes a certification untrustworthy (docs/architecture.md, "Integrity"): the verdict is then not certified. */
export type IntegrityFinding = Infer<typeof integrityFindingSchema>;

export const runTimingSchema = object({
  /** The run stage, start to end, wall clock (players started, every source played, traces shipped). */
  wallMs: number({ minimum: 0 }),
  /** The recorded runs' times on their players, summed (runs play side by side, so it can exceed wallMs). Absent in older results. */
  playersMs: optional(number({ minimum: 0 })),
  /** Of playersMs, the time inside the engine's hooks (a run's concurrent calls each count, up to that run's time). */
  engineMs: number({ minimum: 0 }),
  /** Of playersMs, the rest: what the harness itself cost the players (in older results, without playersMs: wallMs minus engineMs). */
  harnessMs: number({ minimum: 0 }),
});
/** Where a certification's time went: the engine's own hooks against everything else (the harness). */
export type RunTiming = Infer<typeof runTimingSchema>;

export const certificationSchema = named(
  "Certification",
  object({
    engine: namedVersionSchema,
    verdict: oneOf(VERDICTS),
    /** The shard these checks are (`--shard i/n`); null for the whole selection. */
    shard: nullable(shardSchema),
    /** The seeds the scenarios and probes were played under. */
    seeds: array(integer(), { minItems: 1 }),
    /** checkSetDigest() of the selected checks before sharding: shards of one run share it, and the merged checks must give it back. */
    checkSetDigest: string({ pattern: "^[0-9a-f]{16}$" }),
    checks: array(checkResultSchema),
    summary: checkSummarySchema,
    /** Present when something made the run untrustworthy. */
    integrity: optional(array(integrityFindingSchema)),
    /** Present for a certification run by this build (a merge of shards leaves it out). */
    timing: optional(runTimingSchema),
  }),
);
export type Certification = Infer<typeof certificationSchema>;
