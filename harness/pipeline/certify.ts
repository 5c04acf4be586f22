import { mkdtempSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { updatedExpectations, writeExpectations } from "../conformance/expectations.ts";
import { pluginRoots } from "../plugins/discover.ts";
import { collectRunInfo, RESULT_SCHEMA_VERSION, type ResultJson } from "../result/index.ts";
import { assembleCertification, outputSummary, type AssembledCertification } from "./assemble.ts";
import { planCertification, runShapingFlags, shellLine, type CertificationPlan, type CertifyRequest } from "./plan.ts";
import { playerEnv } from "./env.ts";
import { runStage, type RunStageResult } from "./run.ts";
import { changedPaths, snapshotTrees, type WatchedRoot } from "./tree-watch.ts";
import { cacheRoot } from "../util/build-cache.ts";
import { scratchRoot } from "../util/scratch-root.ts";
import { runTiming } from "./timing.ts";
import { appliedBounds } from "./bounds.ts";
import { EarlyChecks } from "./early-checks.ts";

export interface CertifyOptions extends CertifyRequest {
  /** The players' environment (default this process's). */
  env?: NodeJS.ProcessEnv;
  /** Paths this command itself writes (reports, repros, a job summary): not watched for outside writes. */
  outputs?: readonly string[];
  /** Progress lines (a run settled, …). */
  onProgress?: (line: string) => void;
  /** When the run's bound strikes, for a certification inside a longer run (compare); default now + its --max-time. */
  deadline?: number;
}

export interface CertifyOutcome {
  plan: CertificationPlan;
  stage: RunStageResult;
  assembled: AssembledCertification;
  /** The one result JSON, with this certification in it. */
  result: ResultJson;
  /** What to tell the user beside the result: selection notices, expectation warnings, what the engine printed. */
  notices: string[];
  /** Where `--update-expectations` wrote, and how many entries; null when not asked. */
  updatedExpectations: { path: string; entries: number } | null;
}

/**
 * Certify one engine: plan (discovery, checks, runs, bounds, expectations) → run (players) →
 * assemble (outcomes, expectations, integrity, verdict). The engine's code runs only in players.
 * Throws a UsageError for a bad request or an engine that cannot be loaded.
 */
export async function certifyEngine(options: CertifyOptions): Promise<CertifyOutcome> {
  return executeCertification(await planCertification(options), options);
}

/** The run and assemble stages of a planned certification (compare plans every engine's first). */
export async function executeCertification(plan: CertificationPlan, options: Omit<CertifyOptions, keyof CertifyRequest> & Pick<CertifyRequest, "pluginDirs">): Promise<CertifyOutcome> {
  // Thrown away after the run: in RAM where the system has room (the stores skip syncs too).
  const sandbox = mkdtempSync(join(scratchRoot(), "ctxbench-run-"));
  const watched = watchedRoots(plan, options);
  // ctxbench's own disk cache (scenarios and the tokenizer's table, written during the run by this
  // process and the players, whose environment decides where) is its output, not the engine's.
  const cache = cacheRoot(options.env ?? process.env);
  const skip = [sandbox, ...(cache === undefined ? [] : [cache]), ...(options.outputs ?? []).map((path) => resolve(plan.cwd, path))];
  let stage: RunStageResult;
  let writes;
  let wallMs = 0;
  let evaluated;
  try {
    const before = snapshotTrees(watched, skip);
    let settled = 0;
    const checks = new EarlyChecks(plan.checks, { seeds: plan.seeds, withScenarios: plan.withScenarios });
    const started = performance.now();
    stage = await runStage({
      spec: plan.selection.spec,
      runs: plan.sources.map((source) => ({ source })),
      bounds: plan.bounds,
      ...(options.deadline !== undefined ? { deadline: options.deadline } : {}),
      isolate: plan.isolate,
      sandbox,
      env: playerEnv(options.env ?? process.env),
      onRun: (run, outcome, waiting) => {
        checks.settled(run, outcome, waiting);
        options.onProgress?.(`${++settled}/${plan.sources.length} ${run.source.kind}:${run.source.name} (seed ${run.source.seed}): ${outcome.ok ? "recorded" : outcome.outcome}`);
      },
    });
    wallMs = performance.now() - started;
    evaluated = checks.results(stage.outcomes);
    writes = changedPaths(before, snapshotTrees(watched, skip));
  } finally {
    rmSync(sandbox, { recursive: true, force: true });
  }
  const assembled = assembleCertification(plan, stage, writes, evaluated);
  assembled.certification.timing = runTiming(wallMs, stage.outcomes.values());
  const notices = [...plan.selection.notices, ...stage.engine.notices, ...assembled.warnings];
  const printed = outputSummary(stage.output);
  if (printed !== null) notices.push(printed);
  let updated: CertifyOutcome["updatedExpectations"] = null;
  if (plan.expectations.update) {
    const target = plan.expectations.path ?? assembled.expectationsPath ?? join(stage.engine.path === "module" ? dirname(stage.engine.location) : stage.engine.location, "expectations.yaml");
    const entries = updatedExpectations(assembled.results, assembled.expectations);
    writeExpectations(target, entries, stage.engine.name);
    updated = { path: target, entries: Object.keys(entries).length };
  }
  const runInfo = collectRunInfo({ seed: plan.seeds[0]!, command: certifyCommandLine(plan), engines: [assembled.certification.engine], isolation: plan.isolate ? "players" : "in-process", bounds: appliedBounds(plan.bounds, { runs: true, suites: false }) });
  const result: ResultJson = { schemaVersion: RESULT_SCHEMA_VERSION, runInfo, certifications: [assembled.certification], benchmarks: [] };
  return { plan, stage, assembled, result, notices, updatedExpectations: updated };
}

/** The command line recorded in runInfo: deterministic, and enough to rerun this certification. */
export function certifyCommandLine(plan: CertificationPlan): string {
  const words = ["ctxbench", "certify", ...plan.flags];
  if (plan.seeds.length === 1) words.push("--seed", String(plan.seeds[0]));
  else words.push("--seeds", plan.seeds.join(","));
  if (plan.checkSelectors.length > 0) words.push("--checks", ...plan.checkSelectors);
  if (plan.scenarioSelectors !== null) words.push("--scenarios", ...plan.scenarioSelectors);
  if (plan.shard !== null) words.push("--shard", `${plan.shard.index}/${plan.shard.count}`);
  words.push(...runShapingFlags({ bounds: plan.bounds, isolate: plan.isolate, expectationsPath: plan.expectations.path }));
  return shellLine(words);
}

/** The working directory (changes to what was there) and the plugin directories (anything new, too). */
function watchedRoots(plan: CertificationPlan, options: Pick<CertifyRequest, "pluginDirs">): WatchedRoot[] {
  const roots: WatchedRoot[] = [{ path: plan.cwd, additions: false }];
  for (const root of pluginRoots({ cwd: plan.cwd, pluginDirs: [...(options.pluginDirs ?? [])] }).slice(1)) roots.push({ path: root.directory, additions: true });
  for (const candidate of plan.selection.spec.candidates) if (candidate.path !== "module") roots.push({ path: candidate.location, additions: true });
  return roots;
}
