import { describe, expect, it } from "vitest";
import type { Message } from "../contract/types.ts";
import { MinimalEngine } from "../testkit/minimal-engine.ts";
import { buildScenario, listScenarios } from "../../scenarios/catalogue/index.ts";
import { playScenario } from "./play.ts";
import { eventsOf, sandboxesPerTest } from "./test-support.ts";

/**
 * A catalogue scenario's trace must not depend on how fast the engine or the machine is: the same
 * seed gives the same verdicts on a loaded CI runner as on a quiet laptop. So no scenario leaves a
 * pass's fate to the host's real-time timeout (a busy machine would time out passes a quiet one
 * commits); the passes a scenario means to time out it times out by its own event
 * (timeout-next-compaction). The real-time path is the host's own test (compaction.test.ts).
 */

const home = sandboxesPerTest();

/** Far above what any sane compaction pass takes on a loaded machine. */
const SPEED_INDEPENDENT_TIMEOUT_MS = 1000;

/** The minimal engine, with every compress answered after `delayMs` of real time. */
class SlowEngine extends MinimalEngine {
  constructor(private readonly delayMs: number) {
    super();
  }
  override compress(messages: Message[]): Promise<Message[]> {
    const answer = super.compress(messages) as Message[];
    return new Promise((resolve) => setTimeout(() => resolve(answer), this.delayMs));
  }
}

describe("catalogue scenarios do not depend on the engine's speed", () => {
  it.each(listScenarios().map(({ name }) => name))("%s leaves no pass to the host's real-time timeout", (name) => {
    const timeout = buildScenario(name, 1).host?.compactionTimeoutMs;
    if (timeout !== undefined) expect(timeout).toBeGreaterThanOrEqual(SPEED_INDEPENDENT_TIMEOUT_MS);
  });

  it("compression-timeout: an engine whose passes take 120 ms gets the same pass outcomes as one answering at once", async () => {
    const scenario = buildScenario("compression-timeout", 1);
    const outcomes = async (delayMs: number) => {
      const { trace } = await playScenario(scenario, new SlowEngine(delayMs), { home: home(), scratchStore: true });
      return eventsOf(trace, "compaction").map((event) => event.outcome);
    };
    const fast = await outcomes(0);
    expect(fast).toContain("timeout");
    expect(fast).toContain("committed");
    expect(await outcomes(120)).toEqual(fast);
  });
});
