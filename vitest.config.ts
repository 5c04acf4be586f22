import { defineConfig } from "vitest/config";

// Tests import `ctxbench` (fixture plugins do) as its sources, through the package's own
// "ctxbench-source" export condition; everyone else gets the compiled dist/.
const SOURCE_CONDITION = "ctxbench-source";

export default defineConfig({
  resolve: { conditions: [SOURCE_CONDITION, "module", "node", "development|production"] },
  ssr: { resolve: { conditions: [SOURCE_CONDITION, "module", "node", "development|production"] } },
  test: {
    include: ["harness/**/*.test.ts", "engines/**/*.test.ts", "scenarios/**/*.test.ts", "reports/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
  },
});
