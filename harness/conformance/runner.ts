import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ContextEngine } from "../contract/context-engine.ts";
import { reshipTrace } from "../trace/interned.ts";
import { evaluateChecks, type RunOutcome } from "./evaluate.ts";
import { playSource, type PlayableEngine } from "./play-source.ts";
import { planSources, sourceKey, sourceLabel, type SourceRef } from "./sources.ts";
import type { Check, EvaluatedCheck, CheckRun, EngineOrigin } from "./types.ts";
import { DEFAULT_RUN_TIMEOUT_MS } from "../util/run-timeout.ts";

/** An engine handed over as an object factory, as tests and the fixtures use it. */
export interface EngineUnderTest {
  name: string;
  version: string | null;
  /** The name it was selected by (REG-5 compares). */
  selectedName: string;
  /** The `name` its plugin.yaml declares, when it came from a plugin directory (REG-5 compares). */
  manifestName?: string | null;
  origin?: EngineOrigin | null;
  /**
   * A fresh instance. `home` is the run's sandbox: an engine that takes its home at construction
   * (a Python engine's HERMES_HOME) gets the directory the checks watch.
   */
  createFresh(options?: { home?: string }): Promise<ContextEngine>;
}

export interface RunnerOptions {
  /** One seed (default 1); `seeds` wins when both are given. */
  seed?: number;
  seeds?: readonly number[];
  /** Limit of one scenario play or probe run, in ms; every check reading it times out with it. */
  timeoutMs?: number;
  /** Where sandbox directories are made (default: the OS temp dir). */
  sandboxRoot?: string;
  /** Play the checks' catalogue scenarios too; without it, checks read their probes only. */
  scenarios?: boolean;
  /** Called as each run starts, with its label (`probe:usage`), once per seed. */
  onSourceStart?: (label: string) => void;
  /** Called with every run recorded, as the checks read it. */
  onRun?: (run: CheckRun) => void;
}

export { DEFAULT_RUN_TIMEOUT_MS };

/**
 * Runs checks against one engine in this process (tests and the fixtures' self-test; `ctxbench`
 * itself runs engines in players, harness/pipeline/). Every run the checks read is recorded once
 * per seed on a fresh engine in its own sandbox, its trace passed through the same shipped form a
 * player's takes, then every check is evaluated over them. A hang or a throw becomes the outcome
 * of the checks reading that run; an engine stuck in synchronous code is not interrupted here.
 */
export async function runChecks(engine: EngineUnderTest, checks: readonly Check[], options: RunnerOptions = {}): Promise<EvaluatedCheck[]> {
  const seeds = options.seeds ?? [options.seed ?? 1];
  const withScenarios = options.scenarios === true;
  const sandboxRoot = mkdtempSync(join(options.sandboxRoot ?? tmpdir(), "ctxbench-certify-"));
  const playable: PlayableEngine = {
    selectedName: engine.selectedName,
    manifestName: engine.manifestName ?? null,
    version: engine.version,
    origin: engine.origin ?? null,
    createFresh: (options) => engine.createFresh(options),
  };
  const outcomes = new Map<string, RunOutcome>();
  try {
    for (const source of planSources(checks, seeds, withScenarios)) {
      options.onSourceStart?.(sourceLabel(source));
      const outcome = await recordWithDeadline(source, playable, sandboxRoot, options.timeoutMs ?? DEFAULT_RUN_TIMEOUT_MS);
      outcomes.set(sourceKey(source), outcome);
      if (outcome.ok) options.onRun?.({ source: sourceLabel(source), seed: source.seed, scenario: outcome.scenario, trace: outcome.trace });
    }
  } finally {
    rmSync(sandboxRoot, { recursive: true, force: true });
  }
  return evaluateChecks(checks, outcomes, { seeds, withScenarios });
}

async function recordWithDeadline(source: SourceRef, engine: PlayableEngine, sandboxRoot: string, timeoutMs: number): Promise<RunOutcome> {
  const label = sourceLabel(source);
  const started = performance.now();
  const home = mkdtempSync(join(sandboxRoot, `${label.replace(/[^a-z0-9-]/gi, "_")}-`));
  let timer: NodeJS.Timeout | undefined;
  const abandon = new AbortController();
  const deadline = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => {
      abandon.abort();
      resolve("timeout");
    }, timeoutMs);
  });
  try {
    const work = playSource(source, engine, { home, storePath: `${home}.sessions.db`, signal: abandon.signal });
    // A run abandoned at its deadline may still reject later; that rejection is expected.
    work.catch(() => undefined);
    const winner = await Promise.race([work, deadline]);
    const durationMs = performance.now() - started;
    if (winner === "timeout") return { ok: false, outcome: "timeout", message: `${label} did not finish within ${timeoutMs} ms`, durationMs };
    return { ok: true, trace: reshipTrace(winner.trace), scenario: winner.scenario, durationMs };
  } catch (error) {
    return { ok: false, outcome: "error", message: `${label} failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`, durationMs: performance.now() - started };
  } finally {
    clearTimeout(timer);
  }
}
