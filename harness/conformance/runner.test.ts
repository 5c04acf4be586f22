import { describe, expect, it } from "vitest";
import type { ContextEngine } from "../contract/context-engine.ts";
import { DISPOSE } from "../contract/native.ts";
import { CHECKS, selectChecks } from "./checks/index.ts";
import { FixtureBaseEngine } from "./fixtures/index.ts";
import { runChecks, type EngineUnderTest } from "./runner.ts";
import type { Check } from "./types.ts";

const engineOf = (create: () => ContextEngine): EngineUnderTest => ({ name: "fixture-base", version: "0", selectedName: "fixture-base", createFresh: async () => create() });

class HangsInTools extends FixtureBaseEngine {
  override get_tool_schemas(): never {
    return new Promise<never>(() => undefined) as never;
  }
}

class ThrowsEverywhere extends FixtureBaseEngine {
  override update_from_response(): void {
    throw new Error("boom");
  }
}

describe("the runner", () => {
  it("turns a hook that never settles into a timeout of the checks reading that run, and goes on", async () => {
    const results = await runChecks(engineOf(() => new HangsInTools()), selectChecks(["TOOL", "ABC-2"]), { seed: 1, timeoutMs: 300 });
    expect(results.map((r) => [r.id, r.outcome])).toEqual([
      ["ABC-2/usage-echo", "pass"],
      ["TOOL-1/tool-schemas", "timeout"],
      ["TOOL-2/json-results", "timeout"],
    ]);
    expect(results[1]!.message).toContain("probe:tools did not finish within 300 ms");
  });

  it("reports an engine that cannot be made as an error of every check, and one that throws as failures", async () => {
    const broken = await runChecks({ ...engineOf(() => new FixtureBaseEngine()), createFresh: async () => Promise.reject(new Error("no database")) }, selectChecks(["ABC-2", "REG-5"]), { seed: 1 });
    expect(broken.map((r) => r.outcome)).toEqual(["error", "error"]);
    expect(broken[0]!.message).toContain("no database");
    const throwing = await runChecks(engineOf(() => new ThrowsEverywhere()), selectChecks(["ABC-2", "ABC-3", "TOOL-1"]), { seed: 1 });
    expect(throwing.map((r) => r.outcome)).toEqual(["fail", "fail", "pass"]);
  });

  it("plays a run once for every check that reads it", async () => {
    let made = 0;
    const engine = { ...engineOf(() => new FixtureBaseEngine()), createFresh: async () => (made++, new FixtureBaseEngine()) };
    await runChecks(engine, selectChecks(["CMP-2"]), { seed: 1 });
    const once = made;
    made = 0;
    await runChecks(engine, selectChecks(["CMP-2/split-batch"]), { seed: 1 });
    expect(once).toBe(made);
  });

  it("gives every engine it makes the run's sandbox and lets go of each when its run ends, a timed-out run included", async () => {
    const homes: Array<string | undefined> = [];
    let live = 0;
    const make = (Engine: typeof FixtureBaseEngine) => async (options?: { home?: string }) => {
      homes.push(options?.home);
      live++;
      const engine = new Engine();
      Object.defineProperty(engine, DISPOSE, { value: () => void live-- });
      return engine;
    };
    await runChecks({ ...engineOf(() => new FixtureBaseEngine()), createFresh: make(FixtureBaseEngine) }, selectChecks(["CMP-2/split-batch", "LIFE-2"]), { seed: 1 });
    expect(homes.length).toBeGreaterThan(2);
    expect(homes.every((home) => typeof home === "string" && home.includes("ctxbench-certify-"))).toBe(true);
    expect(live).toBe(0);
    await runChecks({ ...engineOf(() => new HangsInTools()), createFresh: make(HangsInTools) }, selectChecks(["TOOL-1"]), { seed: 1, timeoutMs: 300 });
    expect(live).toBe(0);
  });

  it("REG-5: a plugin.yaml name upstream's directory loader never reads is noted, not failed; a name that is not the selection fails", async () => {
    const [named] = await runChecks({ ...engineOf(() => new FixtureBaseEngine()), manifestName: "fixture-other" }, selectChecks(["REG-5"]), { seed: 1 });
    expect(named!.outcome).toBe("pass");
    expect(named!.message).toContain('plugin.yaml says "fixture-other"');
    const [misnamed] = await runChecks({ ...engineOf(() => new FixtureBaseEngine()), selectedName: "other" }, selectChecks(["REG-5"]), { seed: 1 });
    expect(misnamed!.outcome).toBe("fail");
  });

  it("plays every source once per seed and judges the runs of all seeds together", async () => {
    const started: string[] = [];
    const results = await runChecks(engineOf(() => new FixtureBaseEngine()), selectChecks(["ABC-2", "CMP-4"]), { seed: 1, seeds: [1, 2, 3], onSourceStart: (source) => started.push(source) });
    expect(started.filter((source) => source === "probe:usage")).toHaveLength(3);
    expect(results.find((r) => r.id === "ABC-2/usage-echo")!.message).toMatch(/at each of seeds 1, 2, 3/);
    expect(results.find((r) => r.id === "CMP-4/no-growth")!.message).toMatch(/seeds 1, 2, 3\)/);
  });

  it("turns a check whose evaluation throws into an error of that check only", async () => {
    const exploding: Check = { ...CHECKS.find((c) => c.id === "ABC-2/usage-echo")!, id: "ABC-2/exploding", evaluate: () => { throw new Error("bug in check"); } };
    const results = await runChecks(engineOf(() => new FixtureBaseEngine()), [exploding, ...selectChecks(["ABC-3"])], { seed: 1 });
    expect(results.map((r) => r.outcome)).toEqual(["error", "pass"]);
    expect(results[0]!.message).toContain("bug in check");
  });
});
