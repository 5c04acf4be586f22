import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { CostSequencer } from "./test/cost-sequencer.ts";

// Tests import `ctxbench` (fixture plugins do) as its sources, through the package's own
// "ctxbench-source" export condition; everyone else gets the compiled dist/.
const SOURCE_CONDITION = "ctxbench-source";

// One test file per core. vitest's default leaves a core to its main thread (one worker on two
// cores), but most of this suite's time is spent in the processes the CLI tests start, so a
// single worker leaves a core idle. CTXBENCH_TEST_WORKERS overrides it (1 runs the files one by one).
const WORKERS = Number(process.env.CTXBENCH_TEST_WORKERS) || Math.max(1, availableParallelism());

const E2E = ["test/e2e/**/*.test.ts"];

export default defineConfig({
  resolve: { conditions: [SOURCE_CONDITION, "module", "node", "development|production"] },
  ssr: { resolve: { conditions: [SOURCE_CONDITION, "module", "node", "development|production"] } },
  test: {
    globalSetup: ["test/temp-root.ts"],
    sequence: { sequencer: CostSequencer },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: WORKERS,
    projects: [
      {
        // In-process tests share one module graph per worker: importing the harness afresh for
        // every file was about a third of their CPU time. Nothing they import keeps state a
        // test changes (shown by running them so; CTXBENCH_TEST_ISOLATE=1 isolates them again).
        extends: true,
        test: {
          name: "unit",
          include: ["harness/**/*.test.ts", "engines/**/*.test.ts", "scenarios/**/*.test.ts", "reports/**/*.test.ts", "test/**/*.test.ts"],
          exclude: E2E,
          isolate: process.env.CTXBENCH_TEST_ISOLATE === "1",
        },
      },
      // CLI tests as processes: each file keeps its own modules (their temp trees and counters).
      { extends: true, test: { name: "e2e", include: E2E } },
    ],
  },
});
