import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// Tests import `ctxbench` (fixture plugins do) as its sources, through the package's own
// "ctxbench-source" export condition; everyone else gets the compiled dist/.
const SOURCE_CONDITION = "ctxbench-source";

// One test file per core. vitest's default leaves a core to its main thread (one worker on two
// cores), but most of this suite's time is spent in the processes the CLI tests start, so a
// single worker leaves a core idle. CTXBENCH_TEST_WORKERS overrides it (1 runs the files one by one).
const WORKERS = Number(process.env.CTXBENCH_TEST_WORKERS) || Math.max(1, availableParallelism());

export default defineConfig({
  resolve: { conditions: [SOURCE_CONDITION, "module", "node", "development|production"] },
  ssr: { resolve: { conditions: [SOURCE_CONDITION, "module", "node", "development|production"] } },
  test: {
    include: ["harness/**/*.test.ts", "engines/**/*.test.ts", "scenarios/**/*.test.ts", "reports/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: WORKERS,
  },
});
