import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BaselineFigure } from "../bench/baseline.ts";
import { combineSuiteResults, drivesEngines } from "../bench/combine.ts";
import { figuresOf } from "../bench/figures.ts";
import type { EngineInfo, EngineSpec } from "../plugins/spec.ts";
import { inProcessPlayer, PlayerProcess, type PlayerConnection } from "../player/client.ts";
import { addCaptured, type CapturedStream } from "../player/output.ts";
import { RESULT_SCHEMA_VERSION, validateResult, type BenchSuiteName, type BenchSuiteResult } from "../result/index.ts";
import type { Bounds } from "./bounds.ts";
import { playerEnv } from "./env.ts";
import { EngineLoadError, loadFailureMessage, seconds } from "./run.ts";

export interface BenchStageOptions {
  /** Each engine to measure, as discovery planned it. */
  engines: readonly EngineSpec[];
  suites: readonly BenchSuiteName[];
  seed: number;
  quick: boolean;
  bounds: Bounds;
  isolate: boolean;
  env: NodeJS.ProcessEnv;
  /** When the run's bound strikes (default: now + bounds.maxTimeMs). */
  deadline?: number;
  onSuite?: (suite: BenchSuiteName, engine: string | null) => void;
}

export interface BenchStageResult {
  benchmarks: BenchSuiteResult[];
  figures: Record<string, BaselineFigure>;
  /** The engines as their players found them. */
  engines: EngineInfo[];
  /** Suites that could not measure an engine (timeout, error), each one line. */
  failures: string[];
  output: { stdout: CapturedStream; stderr: CapturedStream };
}

/**
 * Benchmarks in players: one player per engine runs that engine's suites, players one after
 * another (figures measured side by side on shared cores would measure each other); an engine-free
 * suite runs once in a player without an engine. Per engine, a suite's result is combined with the
 * other engines' into one. A suite that times out or fails costs that engine's figures (a warning
 * in the suite, a line in `failures`); the run's bound covers the whole stage.
 */
export async function benchStage(options: BenchStageOptions): Promise<BenchStageResult> {
  const deadline = options.deadline ?? performance.now() + options.bounds.maxTimeMs;
  const sandbox = mkdtempSync(join(tmpdir(), "ctxbench-bench-"));
  const parts = new Map<BenchSuiteName, BenchSuiteResult[]>();
  const failures: string[] = [];
  const engines: EngineInfo[] = [];
  const streams: Array<{ stdout: CapturedStream; stderr: CapturedStream }> = [];
  const engineSuites = options.suites.filter((suite) => drivesEngines(suite));
  const freeSuites = options.suites.filter((suite) => !drivesEngines(suite) || options.engines.length === 0);
  let players = 0;
  const maxTime = `--max-time ${seconds(options.bounds.maxTimeMs)}`;
  /** A ready player; for an engine's first player a load failure is the command's (EngineLoadError), for a later one the message. */
  const open = async (spec: EngineSpec | null, first: boolean): Promise<PlayerConnection | string> => {
    const cwd = join(sandbox, `player-${players++}`);
    mkdirSync(join(cwd, "work"), { recursive: true });
    const plan = { engine: spec, sandbox: join(cwd, "runs"), limits: options.bounds.limits };
    const connection = options.isolate ? new PlayerProcess({ plan, cwd: join(cwd, "work"), env: playerEnv(options.env), heapMb: options.bounds.heapMb, role: "bench" }) : await inProcessPlayer(plan);
    const ready = await connection.ready(options.bounds.loadTimeoutMs, { at: deadline, message: "was still loading when the run's bound struck" });
    if (!ready.ok) {
      connection.kill();
      await connection.close();
      const message = spec === null ? `the bench player ${ready.message.replace(/^the player /, "")}` : loadFailureMessage(spec, ready.message, performance.now() >= deadline, options.bounds);
      if (first) throw new EngineLoadError(message);
      return message;
    }
    if (ready.engine !== null && first) engines.push(ready.engine);
    return connection;
  };
  const measure = async (connection: PlayerConnection, suite: BenchSuiteName, who: string | null): Promise<boolean> => {
    options.onSuite?.(suite, who);
    const remaining = deadline - performance.now();
    if (remaining <= 0) {
      failures.push(`${suite}${who ? ` (${who})` : ""}: not run: the run's bound (${maxTime}) struck first`);
      return false;
    }
    const struck = `the run's bound (${maxTime}) struck`;
    const outcome = await connection.bench(suite, { seed: options.seed, quick: options.quick }, options.bounds.suiteTimeoutMs, { at: deadline, message: struck });
    if (!outcome.ok) {
      const bound = outcome.message === struck ? struck : `it passed the limit of one suite (${options.bounds.suiteTimeoutMs / 1000} s)`;
      failures.push(`${suite}${who ? ` (${who})` : ""}: ${outcome.outcome === "timeout" ? `still running when ${bound}; ctxbench stopped the player running it` : outcome.message}`);
      return false;
    }
    const problem = suiteProblem(outcome.result);
    if (problem !== null) {
      failures.push(`${suite}${who ? ` (${who})` : ""}: the player's result is malformed (${problem})`);
      return false;
    }
    parts.set(suite, [...(parts.get(suite) ?? []), outcome.result as unknown as BenchSuiteResult]);
    return true;
  };
  const retire = async (connection: PlayerConnection, kill: boolean) => {
    if (kill) connection.kill();
    await connection.close();
    streams.push(connection.output());
  };
  try {
    for (const spec of engineSuites.length > 0 ? options.engines : []) {
      let connection: PlayerConnection | null = (await open(spec, true)) as PlayerConnection;
      for (const [index, suite] of engineSuites.entries()) {
        if (connection === null) {
          // The engine loaded before, so a fresh player that does not get ready costs the suites left, not the run.
          const opened = await open(spec, false);
          if (typeof opened === "string") {
            for (const left of engineSuites.slice(index)) failures.push(`${left} (${spec.name}): not run: ${opened}`);
            break;
          }
          connection = opened;
        }
        if (await measure(connection, suite, spec.name)) continue;
        // A player whose suite failed may be wedged: the engine's next suite gets a fresh one.
        await retire(connection, true);
        connection = null;
      }
      if (connection !== null) await retire(connection, false);
    }
    if (freeSuites.length > 0) {
      const connection = (await open(null, true)) as PlayerConnection;
      for (const suite of freeSuites) await measure(connection, suite, null);
      await retire(connection, false);
    }
  } finally {
    rmSync(sandbox, { recursive: true, force: true });
  }
  const benchmarks: BenchSuiteResult[] = [];
  const figures: Record<string, BaselineFigure> = {};
  for (const suite of options.suites) {
    const suiteParts = parts.get(suite);
    if (suiteParts === undefined) continue;
    const combined = combineSuiteResults(suiteParts);
    const lost = failures.filter((line) => line.startsWith(`${suite} (`) || line.startsWith(`${suite}:`));
    const result = lost.length > 0 ? { ...combined, warnings: [...combined.warnings, ...lost.map((line) => `not measured: ${line}`)] } : combined;
    benchmarks.push(result);
    Object.assign(figures, figuresOf(result));
  }
  return { benchmarks, figures, engines, failures, output: { stdout: addCaptured(streams.map((s) => s.stdout)), stderr: addCaptured(streams.map((s) => s.stderr)) } };
}

/** The run info of the envelope a lone suite result is wrapped in, so the result schema can check it on its own. */
const ENVELOPE_RUN_INFO = { tool: { name: "ctxbench", version: "0" }, node: "", os: "", cpu: "", cores: 1, gitSha: null, seed: 0, command: "", engines: [] };

/** A suite result from a player, checked against the result schema; the problem, or null. */
function suiteProblem(result: Record<string, unknown>): string | null {
  const probe = { schemaVersion: RESULT_SCHEMA_VERSION, runInfo: ENVELOPE_RUN_INFO, certifications: [], benchmarks: [result] };
  const outcome = validateResult(probe);
  return outcome.ok ? null : `${outcome.problem.path.replace("$.benchmarks[0]", "$")}: ${outcome.problem.message}`;
}
