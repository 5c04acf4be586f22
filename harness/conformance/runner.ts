import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ContextEngine } from "../contract/context-engine.ts";
import { disposeEngine } from "../contract/native.ts";
import type { Scenario } from "../../scenarios/format.ts";
import { TraceRecorder } from "../trace/recorder.ts";
import type { Trace } from "../trace/events.ts";
import { PROBES } from "./probes/index.ts";
import { watchDiscardedPasses } from "./sandbox-watch.ts";
import type { Check, EvaluatedCheck, CheckRun, Outcome, SelectionFacts } from "./types.ts";

/** The engine a certification runs: how to make fresh instances, and what it is called. */
export interface EngineUnderTest {
  name: string;
  version: string | null;
  /** The name it was selected by (REG-5 compares). */
  selectedName: string;
  /** The `name` its plugin.yaml declares, when it came from a plugin directory (REG-5 compares). */
  manifestName?: string | null;
  /** How the loader found it (REG-5 judges the name by the path). */
  selection?: SelectionFacts | null;
  /**
   * A fresh instance. `home` is the run's sandbox: an engine that takes its home at construction
   * (a Python engine's HERMES_HOME) gets the directory the checks watch.
   */
  createFresh(options?: { home?: string }): Promise<ContextEngine>;
}

export type ScenarioBuilder = (name: string, seed: number) => Scenario;
/** Plays a scenario on the reference host; the host's session store goes to `storePath`, outside the engine's sandbox. */
export type ScenarioPlayer = (scenario: Scenario, engine: ContextEngine, options: { home: string; storePath: string; recorder: TraceRecorder }) => Promise<{ trace: Trace }>;

export interface RunnerOptions {
  seed: number;
  /** Seeds to play every source under (default: just `seed`); checks judge the runs of all of them. */
  seeds?: readonly number[];
  /** Limit of one scenario play or probe run, in ms; every check reading it times out with it. */
  timeoutMs?: number;
  /** Where sandbox directories are made (default: the OS temp dir). */
  sandboxRoot?: string;
  /** Plays catalogue scenarios; without it, checks read their probes only. */
  scenarios?: { build: ScenarioBuilder; play: ScenarioPlayer };
  /** Called as each check finishes (progress output). */
  onResult?: (result: EvaluatedCheck) => void;
  /** Called as a scenario or probe starts playing (the isolated runner's heartbeat). */
  onSourceStart?: (source: string) => void;
  /**
   * Sources not to play, each with the outcome every check naming it gets instead: the isolated
   * runner passes the ones an earlier worker process hung or died on.
   */
  settledSources?: ReadonlyMap<string, { outcome: Extract<Outcome, "error" | "timeout">; message: string }>;
  /**
   * A run already known to be what this engine would record for a source and seed (the mutation
   * test's runs a mutant provably cannot change), used instead of playing it again.
   */
  reuse?: (source: string, seed: number) => CheckRun | undefined;
  /** Called with every run as it is recorded or reused. */
  onRun?: (run: CheckRun) => void;
}

export const DEFAULT_RUN_TIMEOUT_MS = 20_000;

type SourceOutcome = { ok: true; run: CheckRun; durationMs: number } | { ok: false; outcome: Extract<Outcome, "error" | "timeout">; message: string; durationMs: number };

/** A source is a scenario or a probe, played once per engine and seed and shared by every check that names it. */
export function sourcesOf(check: Check, withScenarios: boolean): string[] {
  return [...(withScenarios ? check.scenarios.map((name) => `scenario:${name}`) : []), ...check.probes.map((id) => `probe:${id}`)];
}

/**
 * Runs checks against one engine: every scenario and probe the checks name is played once on a
 * fresh engine in its own sandbox, then each check evaluates the recorded traces. A hang, throw or
 * crash becomes that check's outcome; the run goes on.
 */
export async function runChecks(engine: EngineUnderTest, checks: readonly Check[], options: RunnerOptions): Promise<EvaluatedCheck[]> {
  const sandboxRoot = mkdtempSync(join(options.sandboxRoot ?? tmpdir(), "ctxbench-certify-"));
  const played = new Map<string, Promise<SourceOutcome>>();
  for (const [source, settled] of options.settledSources ?? []) played.set(source, Promise.resolve({ ok: false, ...settled, durationMs: 0 }));
  const results: EvaluatedCheck[] = [];
  const seeds = options.seeds !== undefined && options.seeds.length > 0 ? [...new Set(options.seeds)] : [options.seed];
  try {
    for (const check of checks) {
      const sources = sourcesOf(check, options.scenarios !== undefined);
      const outcomes: SourceOutcome[] = [];
      let sourceMs = 0;
      // A broken run decides the check (its first broken run is its outcome): the rest of its runs
      // are played only if another check reads them, so an engine that hangs costs one run per check.
      sourcesLoop: for (const source of sources) {
        for (const seed of seeds) {
          const key = seeds.length === 1 ? source : `${source}#${seed}`;
          let pending = played.get(key) ?? played.get(source);
          const firstUse = pending === undefined;
          if (!pending) {
            const known = options.reuse?.(source, seed);
            if (known === undefined) options.onSourceStart?.(source);
            pending = known !== undefined ? Promise.resolve({ ok: true, run: known, durationMs: 0 }) : playSource(source, engine, { ...options, seed }, sandboxRoot);
            if (options.onRun) void pending.then((outcome) => outcome.ok && options.onRun!(outcome.run));
            played.set(key, pending);
          }
          const outcome = await pending;
          if (firstUse) sourceMs += outcome.durationMs;
          outcomes.push(outcome);
          if (!outcome.ok) break sourcesLoop;
        }
      }
      const result = evaluateCheck(check, outcomes, sources, sourceMs);
      results.push(result);
      options.onResult?.(result);
    }
  } finally {
    rmSync(sandboxRoot, { recursive: true, force: true });
  }
  return results;
}

function evaluateCheck(check: Check, outcomes: SourceOutcome[], sources: string[], sourceMs: number): EvaluatedCheck {
  const base = { id: check.id, rule: check.rule, level: check.level, title: check.title, sources };
  const broken = outcomes.find((outcome): outcome is Extract<SourceOutcome, { ok: false }> => !outcome.ok);
  if (broken) return { ...base, outcome: broken.outcome, message: broken.message, evidence: [], durationMs: sourceMs };
  const started = performance.now();
  try {
    const evaluation = check.evaluate(outcomes.map((outcome) => (outcome as Extract<SourceOutcome, { ok: true }>).run));
    const result: EvaluatedCheck = { ...base, outcome: evaluation.outcome, message: evaluation.message, evidence: evaluation.evidence, durationMs: sourceMs + performance.now() - started };
    if (evaluation.skipReason !== undefined) result.skipReason = evaluation.skipReason;
    return result;
  } catch (error) {
    return { ...base, outcome: "error", message: `evaluating the check failed: ${describe(error)}`, evidence: [], durationMs: sourceMs + performance.now() - started };
  }
}

async function playSource(source: string, engine: EngineUnderTest, options: RunnerOptions, sandboxRoot: string): Promise<SourceOutcome> {
  const started = performance.now();
  const home = mkdtempSync(join(sandboxRoot, `${source.replace(/[^a-z0-9-]/gi, "_")}-`));
  const recorder = new TraceRecorder();
  const timeoutMs = options.timeoutMs ?? DEFAULT_RUN_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
  });
  // Every engine made for this run, let go of when it ends (a remote engine's process ends, even a hung one).
  const created: ContextEngine[] = [];
  let ended = false;
  const fresh = async () => {
    const instance = await engine.createFresh({ home });
    if (ended) {
      await disposeEngine(instance);
      throw new Error(`${source} ended before this engine was made`);
    }
    created.push(instance);
    return instance;
  };
  try {
    const work = runSource(source, fresh, engine, options, home, recorder);
    // A run abandoned at its deadline may still reject later; that rejection is expected.
    work.catch(() => undefined);
    const winner = await Promise.race([work, deadline]);
    const durationMs = performance.now() - started;
    if (winner === "timeout") return { ok: false, outcome: "timeout", message: `${source} did not finish within ${timeoutMs} ms (seed ${options.seed})`, durationMs };
    return { ok: true, run: winner, durationMs };
  } catch (error) {
    return { ok: false, outcome: "error", message: `${source} failed (seed ${options.seed}): ${describe(error)}`, durationMs: performance.now() - started };
  } finally {
    clearTimeout(timer);
    ended = true;
    await Promise.all(created.map((instance) => disposeEngine(instance).catch(() => undefined)));
  }
}

async function runSource(source: string, fresh: () => Promise<ContextEngine>, engine: EngineUnderTest, options: RunnerOptions, home: string, recorder: TraceRecorder): Promise<CheckRun> {
  const [kind, name] = source.split(/:(.*)/s) as [string, string];
  const instance = await fresh();
  if (kind === "scenario") {
    if (!options.scenarios) throw new Error("scenarios are not enabled for this run");
    const scenario = options.scenarios.build(name, options.seed);
    const sandbox = watchDiscardedPasses(instance, home);
    const { trace } = await options.scenarios.play(scenario, instance, { home, storePath: `${home}.sessions.db`, recorder });
    await sandbox.annotate(trace);
    return { source, seed: options.seed, scenario, trace };
  }
  const probe = PROBES.get(name);
  if (!probe) throw new Error(`unknown probe "${name}"`);
  await probe.run(instance, { createEngine: fresh, selectedName: engine.selectedName, manifestName: engine.manifestName ?? null, selection: engine.selection ?? null, home, recorder, seed: options.seed });
  return { source, seed: options.seed, scenario: null, trace: recorder.events };
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
