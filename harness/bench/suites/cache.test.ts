import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CompressorEngine } from "../../../engines/compressor/index.ts";
import { TruncateEngine } from "../../../engines/truncate/index.ts";
import { ContextEngine } from "../../contract/context-engine.ts";
import type { CompressOptions, Message, UpdateModelOptions, Usage } from "../../contract/types.ts";
import { playScenario } from "../../host/play.ts";
import { cacheShape } from "./cache.suite.ts";
import { seededRandom } from "../../util/random.ts";
import { runCacheBench } from "./cache.ts";
import { tallyCache } from "./cache-metrics.ts";
import { cacheRetriesScenario, CeilingEngine, ceilingScenario } from "./cache-scenarios.ts";

/** Compacts like truncate, and answers select_context with a freshly shuffled copy on every call (CACHE-2's anti-pattern). */
class ShufflingEngine extends ContextEngine {
  readonly name = "shuffler";
  readonly #truncate = new TruncateEngine();
  readonly #random = seededRandom(7);
  override update_model(options: UpdateModelOptions): void {
    super.update_model(options);
    this.#truncate.update_model(options);
  }
  update_from_response(usage: Usage): void {
    this.#truncate.update_from_response(usage);
    this.last_prompt_tokens = usage.prompt_tokens;
  }
  should_compress(prompt_tokens?: number): boolean {
    return this.#truncate.should_compress(prompt_tokens);
  }
  compress(messages: Message[], current?: number | null, focus?: string | null, options?: CompressOptions): Message[] {
    this.compression_count += 1;
    return this.#truncate.compress(messages, current, focus, options);
  }
  override select_context(request: Message[]): Message[] {
    const out = [...request];
    for (let index = out.length - 1; index > 0; index--) {
      const other = Math.floor(this.#random() * (index + 1));
      [out[index], out[other]] = [out[other]!, out[index]!];
    }
    return out;
  }
}

// A 16-turn session in a 6k window: compaction fires, and every fourth turn retries after a transient error.
const scenario = cacheRetriesScenario({ seed: 3, turns: 16, contextLength: 6000, toolOutputBytes: 900, retryEvery: 4 });

describe("the cache benchmark", () => {
  it("puts the ceiling at or above every engine, flags the shuffling engine's retries, and fits the result schema", async () => {
    const suite = await runCacheBench({
      engines: [
        { name: "compressor", create: () => new CompressorEngine() },
        { name: "truncate", create: () => new TruncateEngine() },
        { name: "shuffler", create: () => new ShufflingEngine() },
      ],
      scenarioObjects: [scenario],
    });
    expect(suite.scenarios).toEqual(["cache-retries"]);
    const byName = new Map(suite.engines.map((engine) => [engine.engine, engine]));
    for (const engine of suite.engines) {
      expect(engine.ceilingHitRatio).toBeGreaterThanOrEqual(engine.hitRatio);
      expect(engine.turns).toBe(16);
      expect(engine.perTurnHitRatio).toHaveLength(16);
    }
    const shuffler = byName.get("shuffler")!;
    expect(shuffler.needlessSelectionChanges).toBeGreaterThan(0);
    expect(shuffler.hitRatio).toBeLessThan(shuffler.ceilingHitRatio - 0.2);
    expect(shuffler.prefixBreaksPer100Turns).toBeGreaterThan(byName.get("truncate")!.prefixBreaksPer100Turns);
    expect(byName.get("truncate")!.needlessSelectionChanges).toBe(0);
    expect(byName.get("compressor")!.needlessSelectionChanges).toBe(0);
    expect(byName.get("truncate")!.prefixBreaksPer100Turns).toBeGreaterThan(0);
    expect(suite.goals.find((goal) => goal.id === "CACHE-2/shuffler/needless-selection-changes")?.status).toBe("missed");
    expect(suite.goals.find((goal) => goal.id === "CACHE-2/truncate/needless-selection-changes")?.status).toBe("met");
    expect(suite.warnings).toEqual([]);
    // The suite's own shape is what the result schema holds it to.
    expect(cacheShape.check(suite, "$")).toBeNull();
  });

  it("counts no prefix break and no needless change for the ceiling, and every retry on an unchanged conversation", async () => {
    const home = mkdtempSync(join(tmpdir(), "ctxbench-cache-test-"));
    try {
      const { trace } = await playScenario(ceilingScenario(scenario), new CeilingEngine(), { home });
      const tally = tallyCache(trace);
      expect(tally.prefixBreaks).toBe(0);
      expect(tally.needlessSelectionChanges).toBe(0);
      expect(tally.unchangedRetries).toBe(4);
      const requests = trace.filter((event) => event.type === "request");
      expect(requests[0]!.cacheReadTokens).toBe(0);
      expect(tally.cacheReadTokens).toBeGreaterThan(0.8 * tally.promptTokens);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it("gives the same figures for the same seed", async () => {
    const engines = [{ name: "truncate", create: () => new TruncateEngine() }];
    const first = await runCacheBench({ engines, scenarioObjects: [scenario] });
    const second = await runCacheBench({ engines, scenarioObjects: [scenario] });
    expect({ ...second, durationMs: 0 }).toEqual({ ...first, durationMs: 0 });
  });
});
