// Prints the wall time of a full certification per engine, through the same pipeline as `ctxbench certify`:
//   npx tsx harness/pipeline/certify-time.run.ts [--json] [--runs N] [--plugins DIR] [--no-isolate] [engine …]
import { runCertifyTimeBench } from "./certify-time.ts";

const args = process.argv.slice(2);
const valueOf = (flag: string) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);
const runs = Number(valueOf("--runs") ?? 2);
const plugins = valueOf("--plugins");
const values = new Set([valueOf("--runs"), plugins].filter((value) => value !== undefined));
const engines = args.filter((arg) => !arg.startsWith("--") && !values.has(arg));
const result = await runCertifyTimeBench({ runs, inProcess: args.includes("--no-isolate"), ...(engines.length > 0 ? { engines } : {}), ...(plugins !== undefined ? { pluginDirs: [plugins] } : {}) });
if (args.includes("--json")) {
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
} else {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  process.stdout.write(`full certification wall time on 2 cores (every check, the engine in players, scenarios through the reference host; the pipeline timed in this process, so a little under a whole \`ctxbench certify\`)\n`);
  for (const e of result.engines) {
    const warm = e.warmMs ? `, warm median ${s(e.warmMs.median)} over ${e.warmMs.samples} run(s)` : "";
    const outcomes = Object.entries(e.outcomes).map(([outcome, count]) => `${count} ${outcome}`).join(", ");
    process.stdout.write(`  ${e.engine.padEnd(12)} cold ${s(e.coldMs)} (parent CPU ${s(e.coldParentCpuMs)})${warm} — ${e.checks} checks: ${outcomes}; ${e.verdict} — goal ≤ ${s(e.goalMs)} ${e.meetsGoal ? "met" : "NOT met"}\n`);
    process.stdout.write(`  ${"".padEnd(12)} channel: ${(e.channel.bytes / 1e6).toFixed(1)} MB of trace frames from ${e.channel.players} player(s); playing ${s(e.channel.playMs)}, encoding and shipping ${s(e.channel.shipMs)} (summed over players)\n`);
  }
}
