// Prints the quality suite on the bundled engines as JSON:
//   npx tsx harness/bench/suites/quality.run.ts [--seed N] [--compactions K]
import { CompressorEngine } from "../../../engines/compressor/index.ts";
import { LcmEngine } from "../../../engines/lcm/index.ts";
import { TruncateEngine } from "../../../engines/truncate/index.ts";
import { runQualityBench } from "./quality.ts";

function argument(flag: string): string | undefined {
  const index = process.argv.indexOf(flag);
  return index === -1 ? undefined : process.argv[index + 1];
}

const result = await runQualityBench({
  engines: [
    { name: "compressor", create: () => new CompressorEngine() },
    { name: "truncate", create: () => new TruncateEngine() },
    { name: "lcm", create: () => new LcmEngine() },
  ],
  seed: Number(argument("--seed") ?? 1),
  compactions: Number(argument("--compactions") ?? 2),
});
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
