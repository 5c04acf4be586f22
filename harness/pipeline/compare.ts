import { selectEngine } from "../plugins/select.ts";
import type { EngineSpec } from "../plugins/spec.ts";
import type { BaselineFigure } from "../bench/baseline.ts";
import { collectRunInfo, RESULT_SCHEMA_VERSION, type BenchSuiteName, type Certification, type NamedVersion, type ResultJson } from "../result/index.ts";
import { benchStage } from "./bench.ts";
import { appliedBounds, defaultBounds, type Bounds } from "./bounds.ts";
import { executeCertification } from "./certify.ts";
import { outputSummary } from "./assemble.ts";
import { engineNames } from "./engine-request.ts";
import { assertBounds, planCertification, runShapingFlags, shellLine, type CertificationPlan } from "./plan.ts";

export interface CompareRequest {
  cwd: string;
  /** Engines by name (default: every bundled engine). */
  engines?: readonly string[];
  pluginDirs?: readonly string[];
  /** `--python` and `--hermes-agent`, for Python plugins. */
  python?: string;
  hermesAgent?: string;
  /** Suites to run; an empty list runs no benchmark. */
  suites: readonly BenchSuiteName[];
  certify: boolean;
  /** Check ids, rules or prefixes each engine is certified on (default: all). */
  checks?: readonly string[];
  /** The catalogue scenarios those checks play (default: every one they read). */
  scenarios?: readonly string[];
  seed?: number;
  quick: boolean;
  bounds?: Partial<Bounds>;
  isolate?: boolean;
  env?: NodeJS.ProcessEnv;
  /** Paths this command writes: not watched for outside writes. */
  outputs?: readonly string[];
  onProgress?: (line: string) => void;
  /** The command as recorded; default the compare command line. */
  command?: string;
}

export interface CompareOutcome {
  result: ResultJson;
  /** Selection notices, expectation warnings, what engines printed, suites that could not measure an engine. */
  notices: string[];
  /** Suites that could not measure an engine. */
  benchFailures: string[];
  figures: Record<string, BaselineFigure>;
  /** Engines that are not certified, by name. */
  uncertified: string[];
}

/**
 * Several engines side by side: each certified through the pipeline (its own players; one that
 * hangs costs its own checks) and benchmarked in players, into one result. One bound covers the
 * whole comparison; what finished is reported. Bad names and engines that do not load are
 * UsageErrors, before or as the engine's first player starts.
 */
export async function compareEngines(request: CompareRequest): Promise<CompareOutcome> {
  const bounds = defaultBounds(request.bounds);
  assertBounds(bounds);
  const deadline = performance.now() + bounds.maxTimeMs;
  const pluginDirs = [...(request.pluginDirs ?? [])];
  const names = await engineNames(request.cwd, request.engines, pluginDirs, request.hermesAgent);
  const specs: EngineSpec[] = [];
  const notices: string[] = [];
  for (const name of names) {
    const selection = await selectEngine({ cwd: request.cwd, name, pluginDirs, ...runtimeOf(request) });
    specs.push(selection.spec);
    for (const notice of selection.notices) if (!notices.includes(notice)) notices.push(notice);
  }
  const certifications: Certification[] = [];
  const engines = new Map<string, NamedVersion>();
  const seed = request.seed;
  // Every certification is planned before any runs: a malformed expectations file stops the command first.
  const plans: CertificationPlan[] = [];
  if (request.certify) {
    for (const name of names) {
      plans.push(await planCertification({ cwd: request.cwd, engine: name, pluginDirs, ...runtimeOf(request), ...(seed !== undefined ? { seeds: [seed] } : {}), ...(request.checks !== undefined ? { checks: request.checks } : {}), ...(request.scenarios !== undefined ? { scenarios: request.scenarios } : {}), bounds, isolate: request.isolate ?? true }));
    }
  }
  for (const [index, plan] of plans.entries()) {
    request.onProgress?.(`certify ${index + 1}/${plans.length}: ${plan.selection.spec.name}`);
    // Each certification is held to what is left of the comparison's bound; messages name the bound given.
    const outcome = await executeCertification(plan, {
      deadline,
      pluginDirs,
      ...(request.env !== undefined ? { env: request.env } : {}),
      ...(request.outputs !== undefined ? { outputs: request.outputs } : {}),
    });
    notices.push(...outcome.notices.filter((notice) => !notices.includes(notice)));
    certifications.push(outcome.assembled.certification);
    engines.set(names[index]!, outcome.assembled.certification.engine);
  }
  let benchmarks: ResultJson["benchmarks"] = [];
  let figures: Record<string, BaselineFigure> = {};
  let benchFailures: string[] = [];
  if (request.suites.length > 0) {
    const bench = await benchStage({
      engines: specs,
      suites: request.suites,
      seed: seed ?? 1,
      quick: request.quick,
      bounds,
      deadline,
      isolate: request.isolate ?? true,
      env: request.env ?? process.env,
      onSuite: (suite, engine) => request.onProgress?.(`bench ${suite}${engine === null ? "" : ` (${engine})`}`),
    });
    benchmarks = bench.benchmarks;
    figures = bench.figures;
    benchFailures = bench.failures;
    for (const info of bench.engines) if (!engines.has(info.name)) engines.set(info.name, { name: info.name, version: info.version ?? "unversioned" });
    const printed = outputSummary(bench.output);
    if (printed !== null) notices.push(`while benchmarking, ${printed}`);
    notices.push(...bench.failures.map((line) => `not measured: ${line}`));
  }
  const command = request.command ?? compareCommandLine(names, pluginDirs, request);

  const result: ResultJson = {
    schemaVersion: RESULT_SCHEMA_VERSION,
    runInfo: collectRunInfo({ seed: seed ?? 1, command, engines: names.map((name) => engines.get(name) ?? { name, version: "unversioned" }), isolation: request.isolate === false ? "in-process" : "players", bounds: appliedBounds(bounds, { runs: request.certify, suites: request.suites.length > 0 }) }),
    certifications,
    benchmarks,
  };
  return { result, notices, benchFailures, figures, uncertified: certifications.filter((c) => c.verdict !== "certified").map((c) => c.engine.name) };
}

function runtimeOf(request: Pick<CompareRequest, "python" | "hermesAgent">): { python?: string; hermesAgent?: string } {
  return { ...(request.python !== undefined ? { python: request.python } : {}), ...(request.hermesAgent !== undefined ? { hermesAgent: request.hermesAgent } : {}) };
}

/** Every flag that selected engines, plugins, suites and inputs, so pasting it reproduces the run. */
export function compareCommandLine(names: readonly string[], pluginDirs: readonly string[], request: Pick<CompareRequest, "suites" | "certify" | "checks" | "scenarios" | "seed" | "quick" | "python" | "hermesAgent" | "bounds" | "isolate">): string {
  const words = ["ctxbench", "compare", ...names.flatMap((name) => ["--engine", name]), ...pluginDirs.flatMap((dir) => ["--plugins", dir])];
  if (request.python !== undefined) words.push("--python", request.python);
  if (request.hermesAgent !== undefined) words.push("--hermes-agent", request.hermesAgent);
  if (request.suites.length === 0) words.push("--no-bench");
  else words.push(...request.suites.flatMap((suite) => ["--suite", suite]));
  if (!request.certify) words.push("--no-certify");
  else {
    if (request.checks !== undefined && request.checks.length > 0) words.push("--checks", ...request.checks);
    if (request.scenarios !== undefined) words.push("--scenarios", ...request.scenarios);
  }
  words.push("--seed", String(request.seed ?? 1));
  if (request.quick) words.push("--quick");
  words.push(...runShapingFlags({ ...(request.bounds !== undefined ? { bounds: request.bounds } : {}), ...(request.isolate !== undefined ? { isolate: request.isolate } : {}) }));
  return shellLine(words);
}
