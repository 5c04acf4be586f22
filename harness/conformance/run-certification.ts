import { basename } from "node:path";
import { playScenario } from "../host/play.ts";
import { readManifest } from "../plugins/manifest.ts";
import type { LoadedEngine } from "../plugins/types.ts";
import { buildScenario } from "../../scenarios/catalogue/index.ts";
import type { Certification } from "./check-result.ts";
import { certify } from "./certification.ts";
import { CHECKS } from "./checks/index.ts";
import { defaultExpectationsPath, readExpectations, type Expectations } from "./expectations.ts";
import { DEFAULT_RUN_TIMEOUT_MS, runChecks, type EngineUnderTest, type RunnerOptions } from "./runner.ts";
import type { Check, EvaluatedCheck } from "./types.ts";
import { checkSetDigest } from "./verdict.ts";

export interface EngineChecksOptions {
  seed: number;
  seeds?: readonly number[];
  onRun?: RunnerOptions["onRun"];
  checks?: readonly Check[];
  timeoutMs?: number;
  onResult?: (result: EvaluatedCheck) => void;
  onSourceStart?: RunnerOptions["onSourceStart"];
  settledSources?: RunnerOptions["settledSources"];
}

/** A loaded engine as the runner tests it: fresh instances, the name it was selected by, its manifest's name (REG-5). */
export async function engineUnderTest(loaded: LoadedEngine): Promise<EngineUnderTest> {
  const manifestName = loaded.directory === null ? null : await readManifest(loaded.directory).then((manifest) => manifest.name, () => null);
  const via = loaded.source === "general" ? "general" : loaded.source === "directory" ? "directory" : "bundled";
  // The loader names a directory-path engine by its selection key (the directory's name; a checkout's built-in by its name).
  const directoryName = via === "general" ? (loaded.directory === null ? null : basename(loaded.directory)) : loaded.name;
  const selection = { via, directoryName, manifestName } as const;
  return { name: loaded.name, version: loaded.version, selectedName: loaded.selected, manifestName, selection, createFresh: loaded.createFresh };
}

/** Run checks (default: all) against a loaded engine, scenarios played on the reference host. */
export async function runEngineChecks(loaded: LoadedEngine, options: EngineChecksOptions): Promise<{ engine: EngineUnderTest; results: EvaluatedCheck[] }> {
  const engine = await engineUnderTest(loaded);
  const results = await runChecks(engine, options.checks ?? CHECKS, {
    seed: options.seed,
    ...(options.seeds ? { seeds: options.seeds } : {}),
    ...(options.onRun ? { onRun: options.onRun } : {}),
    timeoutMs: options.timeoutMs ?? DEFAULT_RUN_TIMEOUT_MS,
    scenarios: { build: buildScenario, play: (scenario, instance, play) => playScenario(scenario, instance, { ...play, engineVersion: loaded.version }) },
    ...(options.onResult ? { onResult: options.onResult } : {}),
    ...(options.onSourceStart ? { onSourceStart: options.onSourceStart } : {}),
    ...(options.settledSources ? { settledSources: options.settledSources } : {}),
  });
  return { engine, results };
}

export interface CertificationRun {
  certification: Certification;
  results: EvaluatedCheck[];
  /** Warnings from reading the expectations file. */
  warnings: string[];
}

/**
 * Certify one loaded engine on the default catalogue: every check (or the ones given), the
 * engine's own expectations file when it has one.
 */
export async function runCertification(loaded: LoadedEngine, options: EngineChecksOptions & { expectations?: Expectations }): Promise<CertificationRun> {
  let expectations = options.expectations;
  const warnings: string[] = [];
  if (expectations === undefined) {
    const path = defaultExpectationsPath(loaded.directory);
    const read = path === null ? null : readExpectations(path, CHECKS.map((check) => check.id));
    expectations = read?.expectations ?? new Map();
    warnings.push(...(read?.warnings ?? []));
  }
  const { engine, results } = await runEngineChecks(loaded, options);
  const scope = { shard: null, seeds: [options.seed], checkSetDigest: checkSetDigest(options.checks ?? CHECKS) };
  return { certification: certify(engine, results, options.seed, expectations, scope), results, warnings };
}
