import { describe, expect, it } from "vitest";
import type { Message, Usage } from "../contract/types.ts";
import type { TraceEvent } from "../trace/events.ts";
import type { ScenarioTurn } from "../../scenarios/format.ts";
import { playScenario } from "./play.ts";
import { MAX_TURN_PASSES } from "./pressure-gates.ts";
import { eventsOf, sandboxesPerTest, scenario, turn } from "./test-support.ts";
import { MinimalEngine } from "../testkit/minimal-engine.ts";
import { estimateTokensRough } from "../contract/tokens.ts";
import { UNANSWERED_TOOL_RESULT } from "./sanitize.ts";

const home = sandboxesPerTest();

const BIG_RESULT = "line of a large file\n".repeat(200);

/** One turn: a tool step whose result is large, then a final answer. */
function toolTurn(user: string, result = BIG_RESULT): ScenarioTurn {
  return {
    user,
    steps: [{ content: null, toolCalls: [{ id: `call_${user}`, name: "read_file", arguments: '{"path":"big.txt"}', result }] }, { content: "done" }],
  };
}

/** should_compress calls in trace order, with the figure asked about and the gate that asked. */
function questions(trace: readonly TraceEvent[]): Array<{ seq: number; site: unknown; tokens: unknown }> {
  return eventsOf(trace, "engine-call")
    .filter((event) => event.hook === "should_compress")
    .map((event) => ({ seq: event.seq, site: event.detail?.["site"], tokens: event.detail?.["prompt_tokens"] }));
}

const pruneToolResults = (messages: Message[]): Message[] => messages.map((message) => (message.role === "tool" ? { ...message, content: "[pruned]" } : message));

describe("the pre-API gate", () => {
  it("asks about each assembled request, compacts when told to, and assembles the request again from the new history", async () => {
    const engine = new MinimalEngine();
    engine.should_compress = (tokens?: number) => (tokens ?? 0) > 500;
    engine.compress = (messages: Message[]) => pruneToolResults(messages);
    const { trace } = await playScenario(scenario([toolTurn("go")]), engine, { home: home() });

    const compactions = eventsOf(trace, "compaction");
    expect(compactions.map((event) => [event.trigger, event.outcome])).toEqual([["pre-api", "committed"]]);
    const requests = eventsOf(trace, "request");
    expect(requests).toHaveLength(2);
    expect(requests[1]!.seq).toBeGreaterThan(compactions[0]!.seq);
    expect(requests[1]!.messages.find((message) => message.role === "tool")?.content).toBe("[pruned]");
    expect(eventsOf(trace, "turn-end")[0]).toMatchObject({ exitReason: "completed", apiCalls: 2 });

    const asked = questions(trace);
    expect(asked.map((question) => question.site)).toEqual(["preflight", "pre-api", "post-tool", "pre-api"]);
    const gateForSecondRequest = asked[3]!;
    expect(gateForSecondRequest.tokens).toBeGreaterThan(500);
    // After the commit the gate waits for real usage: the re-assembled request is not asked about again.
    expect(asked.filter((question) => question.seq > compactions[0]!.seq)).toEqual([]);
  });

  it("asks an engine that says yes and changes nothing once per turn, not in a loop (the field's #64382)", async () => {
    const engine = new MinimalEngine();
    engine.should_compress = () => true;
    engine.compress = (messages: Message[]) => {
      engine.compressCalls.push(messages);
      return messages;
    };
    const { trace } = await playScenario(scenario([toolTurn("one"), toolTurn("two")]), engine, { home: home() });
    const compactions = eventsOf(trace, "compaction");
    expect(compactions.map((event) => [event.trigger, event.outcome])).toEqual([
      ["preflight", "refused-unchanged"],
      ["preflight", "refused-unchanged"],
    ]);
    expect(questions(trace).filter((question) => question.site !== "preflight")).toEqual([]);
    expect(eventsOf(trace, "turn-end").map((event) => event.exitReason)).toEqual(["completed", "completed"]);
  });
});

describe("the pre-API gate's figure", () => {
  /** Each pre-API question that let its request through (no pass before the next request), its figure beside that request's rough estimate. */
  function preApiFigures(trace: readonly TraceEvent[]): Array<[unknown, number]> {
    const requests = eventsOf(trace, "request");
    const passes = eventsOf(trace, "compaction");
    return questions(trace)
      .filter((question) => question.site === "pre-api")
      .flatMap((question) => {
        const request = requests.find((candidate) => candidate.seq > question.seq)!;
        const passed = passes.some((pass) => pass.seq > question.seq && pass.seq < request.seq);
        return passed ? [] : [[question.tokens, estimateTokensRough(request.messages)] as [unknown, number]];
      });
  }

  it("is the rough estimate of the request it lets through: inherited, selected by the engine, or repaired by the sanitizers", async () => {
    const inherited = new MinimalEngine();
    const selecting = new MinimalEngine();
    // As many messages as the history, the tool results shortened: only their estimate tells them apart.
    selecting.select_context = (messages: Message[]) => messages.map((message) => (message.role === "tool" ? { ...message, content: "[short]" } : message));
    // Its passes drop the tool results: the calls left unanswered get the host's synthetic results in every later request.
    const dropping = new MinimalEngine();
    dropping.should_compress = (tokens?: number) => (tokens ?? 0) > 800;
    dropping.compress = (messages: Message[]) => messages.filter((message) => message.role !== "tool");
    for (const engine of [inherited, selecting, dropping]) {
      const { trace } = await playScenario(scenario([toolTurn("one"), toolTurn("two"), toolTurn("three")]), engine, { home: home() });
      const figures = preApiFigures(trace);
      expect(figures.length).toBeGreaterThanOrEqual(3);
      for (const [asked, sent] of figures) expect(asked).toBe(sent);
    }
    const repaired = eventsOf((await playScenario(scenario([toolTurn("one"), toolTurn("two"), toolTurn("three")]), dropping, { home: home() })).trace, "request");
    expect(repaired.some((request) => request.messages.some((message) => message.content === UNANSWERED_TOOL_RESULT)), "a repaired request was asked about").toBe(true);
  });
});

describe("the post-tool gate", () => {
  it("asks with the prompt size the provider reported for the request that called the tools, and compacts before the next request", async () => {
    const engine = new MinimalEngine();
    let responses = 0;
    let fired = false;
    engine.update_from_response = (usage: Usage) => {
      responses++;
      engine.last_prompt_tokens = usage.prompt_tokens;
    };
    // Yes once, to the first question after the first response: the post-tool gate's.
    engine.should_compress = () => (responses === 1 && !fired ? (fired = true) : false);
    engine.compress = (messages: Message[]) => pruneToolResults(messages);
    const { trace } = await playScenario(scenario([toolTurn("go")]), engine, { home: home() });

    const firstUsage = eventsOf(trace, "response")[0]!.usage!;
    const postTool = questions(trace).find((question) => question.site === "post-tool");
    expect(postTool?.tokens).toBe(firstUsage.prompt_tokens);
    const compactions = eventsOf(trace, "compaction");
    expect(compactions.map((event) => [event.trigger, event.outcome])).toEqual([["post-tool", "committed"]]);
    const requests = eventsOf(trace, "request");
    expect(compactions[0]!.seq).toBeGreaterThan(requests[0]!.seq);
    expect(compactions[0]!.seq).toBeLessThan(requests[1]!.seq);
    expect(requests[1]!.messages.find((message) => message.role === "tool")?.content).toBe("[pruned]");
    // The commit shut the pre-API gate until real usage arrives.
    expect(questions(trace).filter((question) => question.seq > compactions[0]!.seq)).toEqual([]);
  });
});

describe("the turn's pass budget", () => {
  it(`runs at most ${MAX_TURN_PASSES} passes in one turn, however often the engine says yes`, async () => {
    const engine = new MinimalEngine();
    let responses = 0;
    engine.update_from_response = () => void responses++;
    engine.should_compress = () => responses >= 3;
    // Each pass drops the oldest message after the system prompt: real progress every time.
    engine.compress = (messages: Message[]) => [messages[0]!, ...messages.slice(2)];
    const turns = [turn("one", "a"), turn("two", "b"), turn("three", "c"), toolTurn("four", "short result")];
    const { trace } = await playScenario(scenario(turns), engine, { home: home() });
    const compactions = eventsOf(trace, "compaction");
    expect(compactions).toHaveLength(MAX_TURN_PASSES);
    expect(compactions.every((event) => event.outcome === "committed")).toBe(true);
    expect(eventsOf(trace, "turn-end").at(-1)).toMatchObject({ exitReason: "completed" });
  });
});
