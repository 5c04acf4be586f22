/**
 * Joins several result files into one: shards of one certification, or a certification and a
 * benchmark run. The output does not depend on the order of the inputs' shards.
 */
import { findBenchSuite, type BenchSuiteResult } from "../harness/bench/registry.ts";
import { UsageError } from "../harness/util/errors.ts";
import { certificationOf, type Certification, type NamedVersion, type ResultJson } from "../harness/result/index.ts";

/** Results that cannot be joined (exit 2); the message says why, and names the files when known. */
export class MergeError extends UsageError {
  constructor(
    readonly detail: string,
    readonly sources?: readonly string[],
  ) {
    super(`cannot merge${sources === undefined ? "" : ` ${sources.join(", ")}`}: ${detail}`);
  }
}

/** mergeResults over result files: a refusal names the files. */
export function mergeResultFiles(files: readonly { source: string; result: ResultJson }[]): ResultJson {
  try {
    return mergeLabelled(files.map((file) => file.result), files.map((file) => file.source));
  } catch (error) {
    if (error instanceof MergeError && error.sources === undefined) throw new MergeError(error.detail, files.map((file) => file.source));
    throw error;
  }
}

/** runInfo comes from the first result (engines are unioned); certifications of one engine join their checks. */
export function mergeResults(...results: ResultJson[]): ResultJson {
  return mergeLabelled(results, results.map((_, index) => `result ${index + 1}`));
}

/**
 * What must be equal in every result of a merge, and what to call it: results of another build
 * or another seed are not parts of one run, and the merged runInfo (the first result's) would
 * misstate them.
 */
const SAME_RUN: ReadonlyArray<{ what: string; of: (result: ResultJson) => string }> = [
  { what: "ctxbench versions", of: (result) => result.runInfo.tool.version },
  { what: "ctxbench commits", of: (result) => result.runInfo.gitSha ?? "none (not a git checkout)" },
  { what: "seeds", of: (result) => String(result.runInfo.seed) },
];

function runMismatch(results: readonly ResultJson[], labels: readonly string[]): string | null {
  for (const { what, of } of SAME_RUN) {
    const values = new Map<string, string[]>();
    results.forEach((result, index) => values.set(of(result), [...(values.get(of(result)) ?? []), labels[index]!]));
    if (values.size > 1) {
      return `they come from different ${what}: ${[...values].map(([value, sources]) => `${value} (${sources.join(", ")})`).join(", ")}`;
    }
  }
  return null;
}

function mergeLabelled(results: readonly ResultJson[], labels: readonly string[]): ResultJson {
  const [first, ...rest] = results;
  if (!first) throw new MergeError("nothing to merge");
  if (rest.length === 0) return first;
  const mismatch = runMismatch(results, labels);
  if (mismatch !== null) throw new MergeError(mismatch);
  return {
    schemaVersion: first.schemaVersion,
    runInfo: { ...first.runInfo, engines: unionEngines(results.flatMap((result) => result.runInfo.engines)) },
    certifications: mergeCertifications(results.flatMap((result) => result.certifications)),
    benchmarks: mergeBenchmarks(results.flatMap((result) => result.benchmarks)),
  };
}

function unionEngines(engines: NamedVersion[]): NamedVersion[] {
  const byName = new Map<string, NamedVersion>();
  for (const engine of engines) {
    const seen = byName.get(engine.name);
    if (seen && seen.version !== engine.version)
      throw new MergeError(`engine "${engine.name}" appears with two versions (${seen.version}, ${engine.version})`);
    byName.set(engine.name, engine);
  }
  return [...byName.values()];
}

function mergeCertifications(certifications: Certification[]): Certification[] {
  const byEngine = new Map<string, Certification[]>();
  for (const certification of certifications) {
    const key = `${certification.engine.name}@${certification.engine.version}`;
    byEngine.set(key, [...(byEngine.get(key) ?? []), certification]);
  }
  return [...byEngine.values()].map((group) => {
    if (group.length === 1) return group[0]!;
    const checks = group.flatMap((certification) => certification.checks);
    const ids = new Set<string>();
    for (const check of checks) {
      if (ids.has(check.id)) throw new MergeError(`check "${check.id}" of engine "${group[0]!.engine.name}" appears in two results`);
      ids.add(check.id);
    }
    checks.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const { seeds, checkSetDigest } = group[0]!;
    return certificationOf(group[0]!.engine, checks, { shard: null, seeds, checkSetDigest });
  });
}

/** Suites of the same name join as their suite says (per engine), or refuse when its figures are only comparable within one run. */
function mergeBenchmarks(suites: BenchSuiteResult[]): BenchSuiteResult[] {
  const merged: BenchSuiteResult[] = [];
  for (const suite of suites) {
    const index = merged.findIndex((existing) => existing.suite === suite.suite);
    const existing = merged[index];
    if (!existing) {
      merged.push(suite);
      continue;
    }
    const definition = findBenchSuite(suite.suite);
    const joined = definition?.join ? definition.join(existing, suite) : `the "${suite.suite}" suite appears in two results; its figures are only comparable within one run`;
    if (typeof joined === "string") throw new MergeError(joined);
    merged[index] = joined as BenchSuiteResult;
  }
  return merged;
}
