// The engine protocol's cost with a Python engine: npx tsx harness/bench/suites/protocol.run.ts [--json] [--python PATH]
import { runProtocolBench } from "./protocol.ts";

const args = process.argv.slice(2);
const pythonAt = args.indexOf("--python");
const result = await runProtocolBench(pythonAt >= 0 ? { python: args[pythonAt + 1]! } : {});
if (args.includes("--json")) {
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
} else {
  const range = (e: { value: number; low: number; high: number }, digits: number, unit: string) => `${e.value.toFixed(digits)}${unit} (${e.low.toFixed(digits)}–${e.high.toFixed(digits)})`;
  process.stdout.write(`engine protocol, Python ${result.python}\n`);
  process.stdout.write(`  no-op hook round trip:            ${range(result.noopRoundTripUs, 1, " µs")}\n`);
  process.stdout.write(`  the floor, a bare Python echo:    ${range(result.pipeFloorUs, 1, " µs")} (the no-op is ${result.noopOverFloor.toFixed(2)}× it)\n`);
  process.stdout.write(`  ${result.messages}-message select_context:      ${range(result.selectRoundTripMs, 2, " ms")} (messages held by the engine side, the steady state)\n`);
  process.stdout.write(`  the same, every message new:        ${range(result.selectColdRoundTripMs, 2, " ms")} (a transcript's first request)\n`);
  process.stdout.write(`  assembly, inheriting Python engine ÷ none: ${range(result.inheritingAssemblyRatio, 3, "×")}; requests byte-identical: ${result.requestsByteIdentical}\n`);
  process.stdout.write(`  protocol messages sent during ${result.inheritingAssemblies} assemblies with it: ${result.messagesDuringAssembly}\n`);
  for (const goal of result.goals) process.stdout.write(`  goal ${goal.id}: ${goal.status}${"reason" in goal && goal.reason ? ` (${goal.reason})` : ""}\n`);
}
