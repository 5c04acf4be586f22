import { describe, expect, it } from "vitest";
import { ContextEngine } from "../../contract/context-engine.ts";
import type { Message } from "../../contract/types.ts";
import { isPersistedMessage } from "../../host/persisted-message.ts";
import { overheadGoals, overheadTranscript, runOverheadBench } from "./overhead.ts";
import { measureInterleaved, type VariantMeasurement } from "../interleave.ts";
import { compareInterleaved } from "../stats.ts";
import { VirtualMachine } from "../testing/virtual-machine.ts";

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
  it("builds a request that ends on the user's message and is persisted, as the host's history is", () => {
    const transcript = overheadTranscript(60, 1);
    expect(transcript.length).toBeLessThanOrEqual(60);
    expect(transcript.at(-1)!.role).toBe("user");
    expect(transcript.every((m) => isPersistedMessage(m))).toBe(true);
    expect(overheadTranscript(60, 1)).toEqual(transcript);
  });

  it("measures every variant in both stages, checks CACHE-1 byte identity, and states its four goals", async () => {
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
    expect(suite.goals.map((g) => g.id)).toEqual(["identity-check", "inheriting-vs-none", "noop-select-vs-none", "assembly-vs-stringify"]);
    expect(suite.stringifyFloorNs).toBeGreaterThan(0);
  });

  it("leaves out an engine whose select_context is asynchronous, with a warning that names it", async () => {
    const suite = await runOverheadBench({ messages: 20, measure: tiny, engines: [{ name: "async-selector", create: () => new AsyncSelector() }] });
    expect(suite.variants.some((v) => v.variant === "engine:async-selector")).toBe(false);
    expect(suite.warnings.join("\n")).toMatch(/async-selector: select_context is asynchronous/);
  });
});

describe("overhead goals on a noisy measurement", () => {
  // Baseline and variant swapped in time: a synthetic load (1.6× slower) comes exactly while the
  // no-engine baseline is sampled, so an inheriting engine, which does the same work and a check,
  // measures 0.63× no engine with a tight interval — "cheaper than nothing".
  it("flags an engine measured faster than no engine, and does not count the ≤ 1.01× goal as met", async () => {
    const machine = new VirtualMachine(({ variant }) => (variant.endsWith("no-engine") ? 1.6 : 1));
    const measure = { rounds: 8, samplesPerRound: 20, minSampleNs: 20_000, warmupMs: 0.1, clock: machine.clock, calibration: machine.calibration };
    const run = await measureInterleaved([machine.variant("assembly/no-engine", 1000), machine.variant("assembly/inheriting", 1000)], measure);
    const [base, inheriting] = run.variants;
    const rounds = (m: VariantMeasurement) => ({ samples: m.samplesNs, perRound: m.perRound });
    const comparison = compareInterleaved(rounds(inheriting!), rounds(base!));
    expect(comparison.ratio.value).toBeCloseTo(1 / 1.6, 1);
    expect(comparison.ratio.high).toBeLessThan(1);
    expect(run.noise.noisy).toBe(false);

    const goal = overheadGoals({ identityCheck: comparison, inheriting: comparison, noopSelect: comparison, assemblyToStringify: 0.3, messages: 500, noise: run.noise }).find((g) => g.id === "inheriting-vs-none")!;
    expect(goal.measured).toBeLessThan(1.01);
    expect(goal.status).toBe("noisy");
    expect(goal.reason).toMatch(/faster than its baseline/);
    // How the terminal report shows this goal: reports/terminal.test.ts.
  });

  it("meets the same goal when the machine is quiet", async () => {
    const machine = new VirtualMachine();
    const measure = { rounds: 8, samplesPerRound: 20, minSampleNs: 20_000, warmupMs: 0.1, clock: machine.clock, calibration: machine.calibration };
    const run = await measureInterleaved([machine.variant("assembly/no-engine", 1000), machine.variant("assembly/inheriting", 1001)], measure);
    const [base, inheriting] = run.variants;
    const comparison = compareInterleaved({ samples: inheriting!.samplesNs, perRound: inheriting!.perRound }, { samples: base!.samplesNs, perRound: base!.perRound });
    const goals = overheadGoals({ identityCheck: comparison, inheriting: comparison, noopSelect: comparison, assemblyToStringify: 0.3, messages: 500, noise: run.noise });
    expect(goals.find((g) => g.id === "inheriting-vs-none")!.status).toBe("met");
  });
});
