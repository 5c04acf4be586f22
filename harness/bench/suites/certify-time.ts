import { cpuUsage } from "node:process";
import { CHECKS } from "../../conformance/checks/index.ts";
import { runChecks } from "../../conformance/runner.ts";
import { playScenario } from "../../host/play.ts";
import { disposeEngine } from "../../contract/native.ts";
import { loadEngine } from "../../plugins/load.ts";
import { buildScenario } from "../../../scenarios/catalogue/index.ts";
import { summarize, type SampleSummary } from "../stats.ts";

/** The goal: a full certification of one engine within 30 s of wall time on a 2-core machine. */
export const CERTIFY_GOAL_MS = 30_000;

export interface CertifyTimeEngine {
  engine: string;
  checks: number;
  /** Wall time of the first certification in this process (module loading and first-use costs included). */
  coldMs: number;
  /** Wall time of the later certifications. */
  warmMs: SampleSummary | null;
  /** CPU time (user + system) of this process during the first certification. */
  coldCpuMs: number;
  outcomes: Record<string, number>;
  meetsGoal: boolean;
}

export interface CertifyTimeResult {
  suite: "certify-time";
  goalMs: number;
  engines: CertifyTimeEngine[];
}

export interface CertifyTimeOptions {
  engines?: string[];
  /** Certifications per engine (default 2: one cold, one warm). */
  runs?: number;
  seed?: number;
  cwd?: string;
  /** Plugin directories to find the engines in (`--plugins`): a Python plugin is timed through the Hermes bridge. */
  pluginDirs?: string[];
}

/** Times full certifications (every check, scenarios through the reference host) of each engine. */
export async function runCertifyTimeBench(options: CertifyTimeOptions = {}): Promise<CertifyTimeResult> {
  const cwd = options.cwd ?? new URL("../../..", import.meta.url).pathname;
  const runs = Math.max(1, options.runs ?? 2);
  const engines: CertifyTimeEngine[] = [];
  for (const name of options.engines ?? ["compressor", "truncate", "lcm"]) {
    const walls: number[] = [];
    let coldCpuMs = 0;
    const outcomes: Record<string, number> = {};
    for (let run = 0; run < runs; run++) {
      const cpuBefore = cpuUsage();
      const started = performance.now();
      const loaded = await loadEngine({ name, cwd, strict: true, ...(options.pluginDirs ? { pluginDirs: options.pluginDirs } : {}) });
      const results = await runChecks({ name: loaded.name, version: loaded.version, selectedName: loaded.selected, createFresh: loaded.createFresh }, CHECKS, {
        seed: options.seed ?? 1,
        scenarios: { build: buildScenario, play: (scenario, engine, play) => playScenario(scenario, engine, play) },
      });
      walls.push(performance.now() - started);
      await disposeEngine(loaded.engine);
      if (run === 0) {
        const cpu = cpuUsage(cpuBefore);
        coldCpuMs = (cpu.user + cpu.system) / 1000;
        for (const result of results) outcomes[result.outcome] = (outcomes[result.outcome] ?? 0) + 1;
      }
    }
    const coldMs = walls[0]!;
    engines.push({ engine: name, checks: CHECKS.length, coldMs, warmMs: walls.length > 1 ? summarize(walls.slice(1)) : null, coldCpuMs, outcomes, meetsGoal: coldMs <= CERTIFY_GOAL_MS });
  }
  return { suite: "certify-time", goalMs: CERTIFY_GOAL_MS, engines };
}
