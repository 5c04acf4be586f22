// Prints the scenario-generation benchmark: npx tsx harness/bench/suites/generate.run.ts [--json]
import { runGenerateBench } from "./generate.ts";

const result = await runGenerateBench();
if (process.argv.includes("--json")) {
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
} else {
  const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
  process.stdout.write(`scenario generation (goal ${fmt(result.goalMessagesPerSecond)} messages/s, median of ${result.cases[0]?.messagesPerSecond.samples ?? 0} runs)\n`);
  for (const c of result.cases) {
    process.stdout.write(
      `  ${c.name}\n    ${fmt(c.messages)} messages, ${(c.jsonChars / 1e6).toFixed(1)} MB of JSON, ${c.runMs.median.toFixed(1)} ms/run (±${c.runMs.mad.toFixed(1)} MAD)\n` +
        `    wall: ${fmt(c.messagesPerSecond.median)} messages/s (min ${fmt(c.messagesPerSecond.min)}, max ${fmt(c.messagesPerSecond.max)}); ` +
        `CPU: ${fmt(c.messagesPerCpuSecond.median)} messages per CPU-second\n`,
    );
  }
  process.stdout.write(`goal on wall time: ${result.meetsGoal ? "met" : "NOT met"}; on CPU time: ${result.meetsGoalOnCpu ? "met" : "NOT met"} (first two cases)\n`);
}
