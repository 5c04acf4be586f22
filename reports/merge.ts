/**
 * Joins several result files into one: the shards of one certification, or a certification and
 * a benchmark run. Results that do not hang together are refused, saying which file differs: a
 * shard set with a shard missing or twice, shards of different splits, seeds or check sets, and
 * results of different ctxbench versions, commits or engine versions. The output does not depend
 * on the order of the inputs.
 */
import { findBenchSuite, type BenchSuiteResult } from "../harness/bench/registry.ts";
import { UsageError } from "../harness/util/errors.ts";
import { certificationOf, checkSetDigest, type Certification, type NamedVersion, type ResultJson } from "../harness/result/index.ts";

/** Results that cannot be joined (exit 2); the message says why, and names the files when known. */
export class MergeError extends UsageError {
  constructor(
    readonly detail: string,
    readonly sources?: readonly string[],
  ) {
    super(`cannot merge${sources === undefined ? "" : ` ${sources.join(", ")}`}: ${detail}`);
  }
}

interface Input {
  /** A file name, or "result N". */
  source: string;
  result: ResultJson;
}

/** mergeResults over result files: every refusal names the files. */
export function mergeResultFiles(files: readonly { source: string; result: ResultJson }[]): ResultJson {
  try {
    return merge(files);
  } catch (error) {
    if (error instanceof MergeError && error.sources === undefined) throw new MergeError(error.detail, files.map((file) => file.source));
    throw error;
  }
}

/** runInfo comes from the first result (engines are unioned); the shards of one engine's certification join into it. */
export function mergeResults(...results: ResultJson[]): ResultJson {
  return merge(results.map((result, index) => ({ source: `result ${index + 1}`, result })));
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

function sameRun(inputs: readonly Input[]): void {
  for (const { what, of } of SAME_RUN) {
    const values = new Map<string, string[]>();
    for (const { source, result } of inputs) values.set(of(result), [...(values.get(of(result)) ?? []), source]);
    if (values.size > 1) throw new MergeError(`they come from different ${what}: ${[...values].map(([value, sources]) => `${value} (${sources.join(", ")})`).join(", ")}`);
  }
}

function merge(inputs: readonly Input[]): ResultJson {
  const [first] = inputs;
  if (!first) throw new MergeError("nothing to merge");
  sameRun(inputs);
  return {
    schemaVersion: first.result.schemaVersion,
    runInfo: { ...first.result.runInfo, engines: unionEngines(inputs.flatMap(({ source, result }) => result.runInfo.engines.map((engine) => ({ source, engine })))) },
    certifications: mergeCertifications(inputs.flatMap(({ source, result }) => result.certifications.map((certification) => ({ source, certification })))),
    benchmarks: mergeBenchmarks(inputs.flatMap(({ result }) => result.benchmarks)),
  };
}

/** One ctxbench version and commit, one seed: what the merged runInfo claims for all of them. */
function unionEngines(engines: { source: string; engine: NamedVersion }[]): NamedVersion[] {
  const byName = new Map<string, { source: string; engine: NamedVersion }>();
  for (const entry of engines) {
    const seen = byName.get(entry.engine.name);
    if (seen && seen.engine.version !== entry.engine.version)
      throw new MergeError(`engine "${entry.engine.name}" appears with two versions (${seen.engine.version} in ${seen.source}, ${entry.engine.version} in ${entry.source})`);
    if (!seen) byName.set(entry.engine.name, entry);
  }
  return [...byName.values()].map((entry) => entry.engine);
}

type Part = { source: string; certification: Certification };

function mergeCertifications(parts: readonly Part[]): Certification[] {
  const byEngine = new Map<string, Part[]>();
  for (const part of parts) byEngine.set(part.certification.engine.name, [...(byEngine.get(part.certification.engine.name) ?? []), part]);
  return [...byEngine.values()].map(joinEngine);
}

/** The certifications of one engine: one whole run, or every shard of one split of one run. */
function joinEngine(group: readonly Part[]): Certification {
  const [first] = group as [Part, ...Part[]];
  const name = first.certification.engine.name;
  const where = (part: Part) => part.source;
  for (const part of group.slice(1)) {
    const [a, b] = [first.certification, part.certification];
    if (a.engine.version !== b.engine.version) throw new MergeError(`engine "${name}" appears with two versions (${a.engine.version} in ${where(first)}, ${b.engine.version} in ${where(part)})`);
  }
  const shards = group.filter((part) => part.certification.shard !== null);
  if (shards.length > 0 && shards.length < group.length) {
    const whole = group.find((part) => part.certification.shard === null)!;
    throw new MergeError(`engine "${name}" is certified in full in ${where(whole)} and in shards in ${where(shards[0]!)}`);
  }
  const count = shards[0]?.certification.shard!.count ?? 0;
  const split = shards.find((part) => part.certification.shard!.count !== count);
  if (split) throw new MergeError(`engine "${name}": shards of different splits (${label(shards[0]!)} in ${where(shards[0]!)}, ${label(split)} in ${where(split)})`);
  const bySlot = new Map<number, Part>();
  for (const part of shards) {
    const index = part.certification.shard!.index;
    const seen = bySlot.get(index);
    if (seen) throw new MergeError(`engine "${name}": shard ${index}/${count} appears twice (${where(seen)}, ${where(part)})`);
    bySlot.set(index, part);
  }
  const owner = new Map<string, Part>();
  for (const part of group) {
    for (const check of part.certification.checks) {
      const seen = owner.get(check.id);
      if (seen) throw new MergeError(`check "${check.id}" of engine "${name}" appears in two results (${where(seen)}, ${where(part)})`);
      owner.set(check.id, part);
    }
  }
  for (const part of group.slice(1)) {
    const [a, b] = [first.certification, part.certification];
    if (a.checkSetDigest !== b.checkSetDigest)
      throw new MergeError(`engine "${name}" was certified on different check selections (${where(first)} ${a.checkSetDigest}, ${where(part)} ${b.checkSetDigest})`);
    if (a.seeds.join(",") !== b.seeds.join(",")) throw new MergeError(`engine "${name}" was certified under different seeds (${where(first)}: ${a.seeds.join(", ")}; ${where(part)}: ${b.seeds.join(", ")})`);
  }
  const checksOfAll = group.flatMap((part) => part.certification.checks);
  if (shards.length === 0) {
    if (group.length > 1) throw new MergeError(`engine "${name}" is certified in full in ${group.map(where).join(" and in ")}`);
    return first.certification;
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((index) => !bySlot.has(index));
  if (missing.length > 0) {
    const have = [...bySlot.keys()].sort((a, b) => a - b).map((index) => `${index}/${count}`).join(", ");
    throw new MergeError(`engine "${name}": shard${missing.length === 1 ? "" : "s"} ${missing.map((index) => `${index}/${count}`).join(", ")} ${missing.length === 1 ? "is" : "are"} missing (have ${have}); an incomplete set certifies nothing`);
  }
  const checks = [...checksOfAll].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const { seeds, checkSetDigest: digest } = first.certification;
  if (checkSetDigest(checks) !== digest) throw new MergeError(`engine "${name}": the ${count} shards' checks do not make up the check selection they were split from`);
  return certificationOf(first.certification.engine, checks, { shard: null, seeds, checkSetDigest: digest });
}

const label = (part: Part) => `${part.certification.shard!.index}/${part.certification.shard!.count}`;

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
