import { resolve } from "node:path";
import { loadEngine } from "../plugins/load.ts";
import { runCertification } from "../conformance/run-certification.ts";
import { availableSuites } from "../bench/registry.ts";
import { runBenchPlan } from "../bench/run-bench.ts";
import { writeAllReports } from "../../reports/index.ts";
import { collectRunInfo, RESULT_SCHEMA_VERSION, type BenchSuiteName, type Certification, type ResultJson } from "../result/index.ts";
import { disposeEngine } from "../contract/native.ts";
import { benchEngineNames, loadBenchEngines, type PythonRuntimeOptions } from "./bench-engines.ts";
import type { CliIo } from "./io.ts";
import type { Progress } from "./progress.ts";

export interface ComparisonPlan {
  /** Engines to compare; default every bundled engine. */
  engines?: string[] | undefined;
  pluginDirs: string[];
  /** Suites to run; default all. An empty list runs no benchmark. */
  suites?: BenchSuiteName[] | undefined;
  certify: boolean;
  seed: number;
  quick: boolean;
  /** Directory to write every report format into, or null. */
  out: string | null;
  progress: Progress;
  /** `--python` and `--hermes-agent` for Python plugins. */
  runtime?: PythonRuntimeOptions;
}

/** Certify and benchmark several engines into one result: the compliance matrix and the performance tables side by side. */
export async function runComparison(io: CliIo, plan: ComparisonPlan): Promise<ResultJson> {
  const names = await benchEngineNames(io, plan.engines, plan.pluginDirs);
  const certifications: Certification[] = [];
  if (plan.certify) {
    for (const [index, name] of names.entries()) {
      plan.progress.step(`certify ${index + 1}/${names.length}: ${name}`);
      const loaded = await loadEngine({ cwd: io.cwd, name, pluginDirs: plan.pluginDirs, strict: true, ...plan.runtime });
      const run = await runCertification(loaded, { seed: plan.seed });
      await disposeEngine(loaded.engine);
      for (const warning of [...loaded.warnings, ...run.warnings]) io.stderr(`warning: ${warning}\n`);
      certifications.push(run.certification);
    }
  }
  const engines = await loadBenchEngines(io, names, plan.pluginDirs, plan.runtime);
  const suites = plan.suites ?? availableSuites();
  const bench = await runBenchPlan({
    suites,
    engines,
    seed: plan.seed,
    quick: plan.quick,
    onSuiteStart: (suite, index, total) => plan.progress.step(`bench ${index + 1}/${total}: ${suite}`),
  });
  const command = ["ctxbench compare", ...names.map((n) => `--engine ${n}`), `--seed ${plan.seed}`, ...(plan.quick ? ["--quick"] : [])].join(" ");
  const result: ResultJson = {
    schemaVersion: RESULT_SCHEMA_VERSION,
    runInfo: collectRunInfo({ seed: plan.seed, command, engines: engines.map((e) => ({ name: e.name, version: e.version ?? "unknown" })) }),
    certifications,
    benchmarks: bench.benchmarks,
  };
  if (plan.out !== null) {
    const dir = resolve(io.cwd, plan.out);
    const written = await writeAllReports(result, dir, { title: "ctxbench: engines compared" });
    plan.progress.step(`wrote ${written.length} reports to ${dir}`);
  }
  return result;
}

/** Engines whose certification failed, for the main job's verdict. */
export function uncertified(result: ResultJson): string[] {
  return result.certifications.filter((c) => c.verdict !== "certified").map((c) => c.engine.name);
}
