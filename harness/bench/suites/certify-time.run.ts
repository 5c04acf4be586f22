// Prints the wall time of a full certification per engine: npx tsx harness/bench/suites/certify-time.run.ts [--json] [--runs N] [--plugins DIR] [engine …]
import { runCertifyTimeBench } from "./certify-time.ts";

const args = process.argv.slice(2);
const valueOf = (flag: string) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);
const runs = Number(valueOf("--runs") ?? 2);
const plugins = valueOf("--plugins");
const values = new Set([valueOf("--runs"), plugins].filter((value) => value !== undefined));
const engines = args.filter((arg) => !arg.startsWith("--") && !values.has(arg));
const result = await runCertifyTimeBench({ runs, ...(engines.length > 0 ? { engines } : {}), ...(plugins !== undefined ? { pluginDirs: [plugins] } : {}) });
if (args.includes("--json")) {
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
} else {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  process.stdout.write(`full certification wall time (goal ≤ ${s(result.goalMs)} on 2 cores; every check, scenarios through the reference host)\n`);
  for (const e of result.engines) {
    const warm = e.warmMs ? `, warm median ${s(e.warmMs.median)} over ${e.warmMs.samples} run(s)` : "";
    const outcomes = Object.entries(e.outcomes).map(([outcome, count]) => `${count} ${outcome}`).join(", ");
    process.stdout.write(`  ${e.engine.padEnd(12)} cold ${s(e.coldMs)} (CPU ${s(e.coldCpuMs)})${warm} — ${e.checks} checks: ${outcomes} — goal ${e.meetsGoal ? "met" : "NOT met"}\n`);
  }
}
