import { describe, expect, it } from "vitest";
import type { Message } from "../../contract/types.ts";
import { FixtureBaseEngine } from "../fixtures/index.ts";
import { textOf } from "../fixtures/kit.ts";
import { runChecks } from "../runner.ts";
import { HOST_SCENARIOS } from "../test-support.ts";
import { selectChecks } from "./index.ts";

/** Carries the latest answer of the previous pass — whatever its session — into the next summary; no canary is ever touched. */
class CarriesRecentAnswers extends FixtureBaseEngine {
  previous: string | null = null;
  protected override finish(kept: Message[], input: Message[]): Message[] {
    const answer = textOf(input.findLast((m) => m.role === "assistant" && typeof m.content === "string" && !m.content.includes("CANARY")) ?? { role: "assistant" });
    const note = this.previous;
    this.previous = answer;
    if (note === null || kept.length >= input.length) return kept;
    return [kept[0]!, { role: "user", content: `Recent context: ${note}` }, ...kept.slice(1)];
  }
}

const engine = (create: () => FixtureBaseEngine) => ({ name: "fixture-base", version: "0", selectedName: "fixture-base", createFresh: async () => create() });

describe("THR-2 judges leaks by content, not only by planted canaries", () => {
  it("an engine that carries another session's recent text into a session's output fails, with the words as evidence", async () => {
    const [thr2] = await runChecks(engine(() => new CarriesRecentAnswers()), selectChecks(["THR-2"]).map((check) => ({ ...check, scenarios: [] })), { seed: 1 });
    expect(thr2!.outcome).toBe("fail");
    expect(thr2!.message).toMatch(/^content of one session appeared in another's output: "(\w+ ){7}\w+" \(session (alpha|beta)'s own text\) in session (alpha|beta)'s output/);
  });

  it("text the sessions share (the system prompt) and the engine's own text are nobody's: the fixture base engine passes on the concurrent scenario", async () => {
    const [thr2] = await runChecks(engine(() => new FixtureBaseEngine()), selectChecks(["THR-2"]), { seed: 1, scenarios: HOST_SCENARIOS });
    expect(thr2!.outcome, thr2!.message).toBe("pass");
    expect(thr2!.message).toMatch(/outputs of \d+ sessions hold nothing of another session's own text/);
  });
});
