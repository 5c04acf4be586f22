import { describe, expect, it } from "vitest";
import { CompressorEngine } from "../../../engines/compressor/index.ts";
import { TruncateEngine } from "../../../engines/truncate/index.ts";
import { runThroughputBench } from "./engine-throughput.ts";

describe("runThroughputBench", () => {
  it("reports every engine at every size with rates, ratios and a fitted exponent", async () => {
    const result = await runThroughputBench(
      [
        { name: "compressor", create: () => new CompressorEngine() },
        { name: "truncate", create: () => new TruncateEngine() },
      ],
      [200, 400],
      { runs: () => 2, contextLength: 8_000 },
    );
    expect(result.sizes).toEqual([200, 400]);
    expect(result.engines.map((e) => e.engine)).toEqual(["compressor", "truncate"]);
    for (const engine of result.engines) {
      expect(engine.cases).toHaveLength(2);
      expect(Number.isFinite(engine.exponent)).toBe(true);
      for (const c of engine.cases) {
        expect(c.messages).toBeGreaterThanOrEqual(200);
        expect(c.ms.samples).toBe(2);
        expect(c.cpuMs.samples).toBe(2);
        expect(c.outputTokens).toBeLessThan(c.inputTokens);
        expect(c.compressionRatio).toBeCloseTo(c.inputTokens / c.outputTokens);
        expect(c.messagesPerSecond).toBeGreaterThan(0);
        expect(c.tokensPerSecond).toBeGreaterThan(c.messagesPerSecond);
      }
    }
  });

  it("builds the same transcripts for the same seed", async () => {
    const run = () => runThroughputBench([{ name: "truncate", create: () => new TruncateEngine() }], [150], { runs: () => 1, contextLength: 4_000 });
    const [a, b] = await Promise.all([run(), run()]);
    expect(a.engines[0]?.cases[0]?.inputTokens).toBe(b.engines[0]?.cases[0]?.inputTokens);
    expect(a.engines[0]?.cases[0]?.outputTokens).toBe(b.engines[0]?.cases[0]?.outputTokens);
  });
});
