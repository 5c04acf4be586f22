import { describe, expect, it } from "vitest";
import { ContextEngine } from "../../contract/context-engine.ts";
import type { Message } from "../../contract/types.ts";
import { overheadTranscript, runOverheadBench } from "./overhead.ts";

class AsyncSelector extends ContextEngine {
  readonly name = "async-selector";
  update_from_response(): void {}
  should_compress(): boolean {
    return false;
  }
  compress(messages: Message[]): Message[] {
    return messages;
  }
  override async select_context(): Promise<null> {
    return null;
  }
}

const tiny = { rounds: 1, samplesPerRound: 3, minSampleNs: 2_000, warmupMs: 1 };

describe("overhead suite", () => {
  it("builds a request that ends on the user's message and carries host identity fields", () => {
    const transcript = overheadTranscript(60, 1);
    expect(transcript.length).toBeLessThanOrEqual(60);
    expect(transcript.at(-1)!.role).toBe("user");
    expect(transcript.every((m) => typeof m.message_uid === "string")).toBe(true);
    expect(overheadTranscript(60, 1)).toEqual(transcript);
  });

  it("measures every variant in both stages, checks CACHE-1 byte identity, and states its three goals", async () => {
    const suite = await runOverheadBench({ messages: 40, measure: tiny });
    expect(suite.requestsByteIdentical).toBe(true);
    expect(suite.variants.map((v) => `${v.stage}/${v.variant}`)).toEqual([
      "selection/no-engine",
      "selection/inheriting",
      "selection/select-null",
      "assembly/no-engine",
      "assembly/inheriting",
      "assembly/select-null",
    ]);
    for (const row of suite.variants) {
      expect(row.samples).toBeGreaterThan(0);
      expect(row.ratioToNoEngine === null).toBe(row.variant === "no-engine");
      expect(row.ratioToStringify === null).toBe(row.stage === "selection");
    }
    expect(suite.goals.map((g) => g.id)).toEqual(["identity-check", "inheriting-vs-none", "assembly-vs-stringify"]);
    expect(suite.stringifyFloorNs).toBeGreaterThan(0);
  });

  it("leaves out an engine whose select_context is asynchronous, with a warning that names it", async () => {
    const suite = await runOverheadBench({ messages: 20, measure: tiny, engines: [{ name: "async-selector", create: () => new AsyncSelector() }] });
    expect(suite.variants.some((v) => v.variant === "engine:async-selector")).toBe(false);
    expect(suite.warnings.join("\n")).toMatch(/async-selector: select_context is asynchronous/);
  });
});
