import { describe, expect, it } from "vitest";
import { CompressorEngine } from "../../../engines/compressor/index.ts";
import { LcmEngine } from "../../../engines/lcm/index.ts";
import { TruncateEngine } from "../../../engines/truncate/index.ts";
import type { Message } from "../../contract/types.ts";
import { qualityShape, qualitySuite } from "./quality.suite.ts";
import { runQualityBench } from "./quality.ts";
import { qualityScenario } from "./quality-scenario.ts";
import { ArchivistEngine } from "../../../test/fixtures/plugins/recall/archivist/index.ts";

/** Compacts when truncate would, keeping only the system prompt and the newest user message. */
class DropAllEngine extends TruncateEngine {
  override compress(messages: Message[]): Message[] {
    this.compression_count += 1;
    const last = messages[messages.length - 1];
    return [...messages.filter((message) => message.role === "system"), ...(last?.role === "user" ? [last] : [])];
  }
}

// Four canaries in turns 1–4 of a session sized for two compactions in a 6k window.
const scenario = qualityScenario({ seed: 2, compactions: 2, canaries: 4, contextLength: 6000, toolOutputBytes: 900 });

describe("the quality benchmark", () => {
  it("plants the canaries early, in the user messages of turns 1 to 4", () => {
    expect(scenario.canaries.map((canary) => canary.turn)).toEqual([1, 2, 3, 4]);
    for (const canary of scenario.canaries) expect(JSON.stringify(scenario.sessions[0]!.turns[canary.turn]!.user)).toContain(canary.token);
  });

  it("finds lcm's canaries through its grep tool after two compactions, none in an engine that drops everything, and fits the result schema", async () => {
    const suite = await runQualityBench({
      engines: [
        { name: "lcm", create: () => new LcmEngine() },
        { name: "drop-all", create: () => new DropAllEngine() },
        { name: "compressor", create: () => new CompressorEngine() },
      ],
      scenario,
      compactions: 2,
    });
    expect(suite.canaries).toBe(4);
    const [lcm, dropAll, compressor] = suite.engines;
    expect(lcm!.compactions).toBeGreaterThanOrEqual(2);
    expect(lcm!.recallViaTools).toBeGreaterThan(0);
    expect(dropAll!.compactions).toBeGreaterThanOrEqual(2);
    expect(dropAll!.recallActive).toBe(0);
    expect(dropAll!.recallViaTools).toBeNull();
    expect(dropAll!.recallViaToolsNotMeasured).toBe("no tools");
    expect(lcm!.searchTool).toEqual({ name: "lcm_grep", parameter: "query", chosenBy: "schema" });
    expect(dropAll!.tokensRemovedRatio).toBeGreaterThan(0.5);
    expect(compressor!.recallViaTools).toBeNull();
    expect(compressor!.tokensRemovedRatio).toBeGreaterThan(0);
    expect(compressor!.tokensRemovedRatio).toBeLessThan(1);
    expect(suite.warnings).toEqual([]);
    // The suite's own shape is what the result schema holds it to.
    expect(qualityShape.check(suite, "$")).toBeNull();
  });

  it("measures recall through a search tool named like nothing the suite knows, and names the tool it asked", async () => {
    const suite = await runQualityBench({ engines: [{ name: "archivist", create: () => new ArchivistEngine() }], scenario, compactions: 2 });
    const [archivist] = suite.engines;
    expect(archivist!.compactions).toBeGreaterThanOrEqual(2);
    expect(archivist!.searchTool).toEqual({ name: "archivist_dig", parameter: "query", chosenBy: "schema" });
    expect(archivist!.recallViaTools).toBe(1);
    expect(archivist!.recallViaToolsNotMeasured).toBeNull();
  });

  it("asks the tool plugin.yaml names, and gives the reason instead of a figure when the tools offer no query", async () => {
    class NodeToolsEngine extends ArchivistEngine {
      override get_tool_schemas() {
        return [{ name: "node_info", description: "Describe one node.", parameters: { type: "object", properties: { node_id: { type: "string" } }, required: ["node_id"] } }];
      }
    }
    const suite = await runQualityBench({
      engines: [
        { name: "node-tools", create: () => new NodeToolsEngine() },
        { name: "hinted", create: () => new ArchivistEngine(), searchTool: { tool: "archivist_dig", parameter: "query" } },
      ],
      scenario,
      compactions: 2,
    });
    const [nodeTools, hinted] = suite.engines;
    expect(nodeTools!.recallViaTools).toBeNull();
    expect(nodeTools!.searchTool).toBeNull();
    expect(nodeTools!.recallViaToolsNotMeasured).toMatch(/^none of its tools \(node_info\(node_id\)\) takes a query/);
    expect(hinted!.searchTool).toEqual({ name: "archivist_dig", parameter: "query", chosenBy: "hint" });
    expect(qualityShape.check(suite, "$")).toBeNull();
    expect(qualitySuite.consistency!(suite, "$")).toBeNull();
  });

  it("warns when an engine falls short of the compactions the scenario is sized for", async () => {
    const suite = await runQualityBench({ engines: [{ name: "truncate", create: () => new TruncateEngine() }], scenario, compactions: 50 });
    expect(suite.engines[0]!.compactions).toBeLessThan(50);
    expect(suite.warnings).toEqual([expect.stringContaining("truncate compacted")]);
  });
});
