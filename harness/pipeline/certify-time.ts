import { cpuUsage } from "node:process";
import { CHECKS } from "../conformance/checks/index.ts";
import { summarize, type SampleSummary } from "../bench/stats.ts";
import { PACKAGE_ROOT } from "../util/package-root.ts";
import { certifyEngine } from "./certify.ts";

/** The general goal: a full certification of one engine within 30 s of wall time on a 2-core machine. */
export const CERTIFY_GOAL_MS = 30_000;

/** A Python engine's, with a bridge in every player (issue 14). */
export const PYTHON_CERTIFY_GOAL_MS = 60_000;

/**
 * The bundled engines' goals (issue 17). They are stated for the whole `ctxbench certify` process
 * (median of 5); this benchmark times the pipeline inside one process, so it reads a little under
 * the process's wall and its "met" is necessary, not sufficient.
 */
export const BUNDLED_CERTIFY_GOALS_MS: Readonly<Record<string, number>> = { truncate: 2_000, compressor: 4_000, lcm: 6_000 };

/** The goal a certification of this engine is held to. */
export function certifyGoalMs(engine: { name: string; bundled: boolean; language: string }): number {
  if (engine.bundled) return BUNDLED_CERTIFY_GOALS_MS[engine.name] ?? CERTIFY_GOAL_MS;
  return engine.language === "python" ? PYTHON_CERTIFY_GOAL_MS : CERTIFY_GOAL_MS;
}

export interface CertifyTimeEngine {
  engine: string;
  checks: number;
  /** Wall time of the first certification in this process (module loading and first-use costs of this process included). */
  coldMs: number;
  /** Wall time of the later certifications. */
  warmMs: SampleSummary | null;
  /** CPU time (user + system) of this process — the parent — during the first certification; the players' is apart. */
  coldParentCpuMs: number;
  outcomes: Record<string, number>;
  verdict: string;
  /** The first certification's channel: bytes of trace frames, and the players' time playing and shipping. */
  channel: { bytes: number; playMs: number; shipMs: number; players: number };
  /** The goal this engine is held to (certifyGoalMs). */
  goalMs: number;
  /** The cold run within goalMs. */
  meetsGoal: boolean;
}

export interface CertifyTimeResult {
  suite: "certify-time";
  /** The general goal; each engine states its own. */
  goalMs: number;
  engines: CertifyTimeEngine[];
}

export interface CertifyTimeOptions {
  engines?: string[];
  /** Certifications per engine (default 2: one cold, one warm). */
  runs?: number;
  seeds?: number[];
  cwd?: string;
  /** Players in this process instead (what `--no-isolate` does). */
  inProcess?: boolean;
  /** Plugin directories to find the engines in (`--plugins`): a Python plugin is timed through the Hermes bridge. */
  pluginDirs?: string[];
}

/**
 * Times full certifications (every check; the engine in players, scenarios through the reference
 * host, REG-5 against the manifest) of each engine through the one pipeline `ctxbench certify` uses.
 */
export async function runCertifyTimeBench(options: CertifyTimeOptions = {}): Promise<CertifyTimeResult> {
  const cwd = options.cwd ?? PACKAGE_ROOT;
  const runs = Math.max(1, options.runs ?? 2);
  const engines: CertifyTimeEngine[] = [];
  for (const name of options.engines ?? ["compressor", "truncate", "lcm"]) {
    const walls: number[] = [];
    let coldParentCpuMs = 0;
    const outcomes: Record<string, number> = {};
    let verdict = "";
    let channel = { bytes: 0, playMs: 0, shipMs: 0, players: 0 };
    let goalMs = CERTIFY_GOAL_MS;
    for (let run = 0; run < runs; run++) {
      const cpuBefore = cpuUsage();
      const started = performance.now();
      const outcome = await certifyEngine({ cwd, engine: name, ...(options.seeds ? { seeds: options.seeds } : {}), ...(options.pluginDirs ? { pluginDirs: options.pluginDirs } : {}), isolate: options.inProcess !== true });
      walls.push(performance.now() - started);
      if (run === 0) {
        const cpu = cpuUsage(cpuBefore);
        coldParentCpuMs = (cpu.user + cpu.system) / 1000;
        for (const check of outcome.assembled.certification.checks) outcomes[check.outcome] = (outcomes[check.outcome] ?? 0) + 1;
        verdict = outcome.assembled.certification.verdict;
        channel = { bytes: outcome.stage.channel.bytes, playMs: outcome.stage.channel.playMs, shipMs: outcome.stage.channel.shipMs, players: outcome.stage.playersStarted };
        goalMs = certifyGoalMs(outcome.stage.engine);
      }
    }
    const coldMs = walls[0]!;
    engines.push({ engine: name, checks: CHECKS.length, coldMs, warmMs: walls.length > 1 ? summarize(walls.slice(1)) : null, coldParentCpuMs, outcomes, verdict, channel, goalMs, meetsGoal: coldMs <= goalMs });
  }
  return { suite: "certify-time", goalMs: CERTIFY_GOAL_MS, engines };
}
