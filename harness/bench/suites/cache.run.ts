// Prints the cache suite on the bundled engines as JSON:
//   npx tsx harness/bench/suites/cache.run.ts [--seed N] [--scenarios provider-faults,cache-retries]
import { CompressorEngine } from "../../../engines/compressor/index.ts";
import { LcmEngine } from "../../../engines/lcm/index.ts";
import { TruncateEngine } from "../../../engines/truncate/index.ts";
import { runCacheBench } from "./cache.ts";

function argument(flag: string): string | undefined {
  const index = process.argv.indexOf(flag);
  return index === -1 ? undefined : process.argv[index + 1];
}

const seed = Number(argument("--seed") ?? 1);
const scenarios = argument("--scenarios")?.split(",").filter((name) => name !== "");
const result = await runCacheBench({
  engines: [
    { name: "compressor", create: () => new CompressorEngine() },
    { name: "truncate", create: () => new TruncateEngine() },
    { name: "lcm", create: () => new LcmEngine() },
  ],
  seed,
  ...(scenarios !== undefined ? { scenarios } : {}),
});
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
