import { describe, expect, it } from "vitest";
import { stripAll } from "../contract/persistence-fields.ts";
import { estimateTokensRough } from "../contract/tokens.ts";
import { estimateTokensExact } from "../contract/tokens-exact.ts";
import type { Message, TurnCompleteInfo, Usage } from "../contract/types.ts";
import type { ProviderFault } from "../../scenarios/format.ts";
import { playScenario } from "./play.ts";
import { eventsOf, hookOrder, sandboxesPerTest, scenario, turn } from "./test-support.ts";
import { MinimalEngine } from "../testkit/minimal-engine.ts";

const home = sandboxesPerTest();

class ObservingEngine extends MinimalEngine {
  turns: Array<{ messages: Message[]; usage: Usage | null; info: TurnCompleteInfo | undefined }> = [];
  ends: Array<{ session: string; messages: Message[] }> = [];
  starts: Array<{ session: string; info: Record<string, unknown> | undefined }> = [];
  override on_turn_complete(messages: Message[], usage: Usage | null, info?: TurnCompleteInfo): void {
    this.turns.push({ messages, usage, info });
  }
  override on_session_end(session: string, messages: Message[]): void {
    this.ends.push({ session, messages });
  }
  override on_session_start(session: string, info?: Record<string, unknown>): void {
    this.starts.push({ session, info });
  }
}

describe("LIFE-1: lifecycle order", () => {
  it("update_model → on_session_start → per turn and per call should_compress, per call update_from_response → on_session_end once, at the end", async () => {
    const sandboxHome = home();
    const engine = new ObservingEngine();
    const { trace } = await playScenario(scenario([turn("hi", "hello"), turn("again", "sure")]), engine, { home: sandboxHome });
    const order = hookOrder(trace);
    expect(order.slice(0, 3)).toEqual(["update_model", "get_tool_schemas", "on_session_start"]);
    expect(order.filter((hook) => hook === "on_session_end")).toHaveLength(1);
    expect(order.at(-1)).toBe("on_session_end");
    expect(order.filter((hook) => hook === "update_from_response")).toHaveLength(2);
    // Each turn: the turn-start preflight, the pre-API gate of its one request, then the response.
    expect(order.filter((hook) => hook === "should_compress" || hook === "update_from_response")).toEqual([
      "should_compress", "should_compress", "update_from_response",
      "should_compress", "should_compress", "update_from_response",
    ]);
    const firstTurnEnd = trace.findIndex((event) => event.type === "turn-end");
    const sessionEnd = trace.findIndex((event) => event.type === "engine-call" && event.hook === "on_session_end");
    expect(sessionEnd).toBeGreaterThan(firstTurnEnd);
    expect(engine.starts[0]).toEqual({
      session: "s1",
      info: { home: sandboxHome, platform: "cli", model: "sim-model", context_length: 65536, conversation_id: null },
    });
  });

  it("reset: on_session_end, on_session_reset, then on_session_start of a new session", async () => {
    const engine = new ObservingEngine();
    const play = scenario([turn("one", "a"), turn("two", "b")], {
      schedule: [
        { kind: "turn", session: "s1", turn: 0 },
        { kind: "event", session: "s1", event: { type: "reset" } },
        { kind: "turn", session: "s1", turn: 1 },
      ],
    });
    const { trace, histories } = await playScenario(play, engine, { home: home() });
    const order = hookOrder(trace).filter((hook) => hook.startsWith("on_session"));
    expect(order).toEqual(["on_session_start", "on_session_end", "on_session_reset", "on_session_start", "on_session_end"]);
    expect(engine.starts[1]?.info?.["old_session_id"]).toBe("s1");
    expect(histories["s1"]!.map((message) => message.content)).toEqual(["You are a test assistant.", "two", "b"]);
  });
});

describe("OTC-1…3: on_turn_complete", () => {
  it("gets copies with uids (UID-1), the turn's usage, and the turn metadata; edits never reach history", async () => {
    const engine = new ObservingEngine();
    engine.on_turn_complete = function (this: ObservingEngine, messages: Message[], usage: Usage | null, info?: TurnCompleteInfo) {
      this.turns.push({ messages: messages.map((message) => ({ ...message })), usage, info });
      messages[1]!.content = "vandalised";
      messages.push({ role: "user", content: "injected" });
    };
    const play = scenario([{ user: "hi", taskId: "task-7", steps: [{ content: "hello" }] }, turn("again", "sure")]);
    const { trace, histories } = await playScenario(play, engine, { home: home() });
    expect(engine.turns).toHaveLength(2);
    const first = engine.turns[0]!;
    expect(first.messages.map((message) => message.role)).toEqual(["system", "user", "assistant"]);
    for (const message of first.messages) expect(message.message_uid).toMatch(/^[0-9a-f]{32}$/);
    const response = eventsOf(trace, "response")[0]!;
    expect(first.usage).toEqual(response.usage);
    expect(first.info).toMatchObject({ task_id: "task-7", api_call_count: 1, interrupted: false, failed: false, turn_exit_reason: "completed" });
    expect(first.info?.turn_id).toMatch(/^s1:task-7:[0-9a-f]{8}$/);
    expect(histories["s1"]!.map((message) => message.content)).toEqual(["You are a test assistant.", "hi", "hello", "again", "sure"]);
  });

  it("swallows an exception (OTC-2) and records a warning", async () => {
    const engine = new ObservingEngine();
    engine.on_turn_complete = () => {
      throw new Error("observer broke");
    };
    const { trace } = await playScenario(scenario([turn("hi", "hello"), turn("again", "sure")]), engine, { home: home() });
    expect(eventsOf(trace, "turn-end").map((event) => event.exitReason)).toEqual(["completed", "completed"]);
    expect(eventsOf(trace, "warning").some((event) => event.message.includes("on_turn_complete hook failed"))).toBe(true);
  });

  const faults: Array<[string, ProviderFault, string, boolean]> = [
    ["a content-policy block", { kind: "content-policy" }, "content_policy_blocked", false],
    ["a provider terminal failure", { kind: "terminal" }, "provider_terminal_failure", false],
    ["transient errors past the retry budget", { kind: "transient", failures: 9 }, "provider_retries_exhausted", false],
    ["an interrupted stream", { kind: "interrupted" }, "interrupted", true],
    ["a slow reply", { kind: "slow", delayMs: 90_000 }, "completed", true],
  ];
  for (const [label, fault, exit, hooked] of faults) {
    it(`${label}: exit ${exit}, on_turn_complete ${hooked ? "called" : "skipped (OTC-3)"}`, async () => {
      const engine = new ObservingEngine();
      const play = scenario([{ user: "go", steps: [{ content: "reply", fault }] }]);
      const { trace } = await playScenario(play, engine, { home: home() });
      const [end] = eventsOf(trace, "turn-end");
      expect(end).toMatchObject({ exitReason: exit, onTurnCompleteCalled: hooked });
      expect(engine.turns).toHaveLength(hooked ? 1 : 0);
      if (exit === "interrupted") expect(engine.turns[0]).toMatchObject({ usage: null, info: { interrupted: true, failed: false } });
    });
  }

  it("is skipped for an engine that inherits it (SEL-1)", async () => {
    const { trace } = await playScenario(scenario([turn("hi", "hello")]), new MinimalEngine(), { home: home() });
    expect(hookOrder(trace)).not.toContain("on_turn_complete");
    expect(eventsOf(trace, "turn-end")[0]?.onTurnCompleteCalled).toBe(false);
  });
});

describe("SEL-4, SEL-5: a selection is request-only and re-runs on retries", () => {
  it("sends the selection, persists the real turn, and selects again for each retry", async () => {
    const engine = new ObservingEngine();
    let calls = 0;
    engine.select_context = (request: Message[]) => {
      calls++;
      return [request[0]!, request[request.length - 1]!];
    };
    const play = scenario([
      turn("first question", "first answer"),
      { user: "second question", steps: [{ content: "second answer", fault: { kind: "transient", failures: 2 } }] },
    ]);
    const { trace, histories } = await playScenario(play, engine, { home: home() });
    const requests = eventsOf(trace, "request");
    expect(requests.map((request) => [request.turn, request.attempt, request.selection])).toEqual([
      [0, 0, "replaced"],
      [1, 0, "replaced"],
      [1, 1, "replaced"],
      [1, 2, "replaced"],
    ]);
    expect(calls).toBe(4);
    expect(requests[3]!.messages.map((message) => message.content)).toEqual(["You are a test assistant.", "second question"]);
    expect(histories["s1"]!.map((message) => message.content)).toEqual([
      "You are a test assistant.",
      "first question",
      "first answer",
      "second question",
      "second answer",
    ]);
  });
});

describe("UID-1: uids on every engine surface", () => {
  it("compress input, on_session_end messages and restored histories carry message_uid", async () => {
    const engine = new ObservingEngine();
    const play = scenario([turn("one", "a"), turn("two", "b")], {
      schedule: [
        { kind: "turn", session: "s1", turn: 0 },
        { kind: "turn", session: "s1", turn: 1 },
        { kind: "event", session: "s1", event: { type: "compress" } },
      ],
    });
    const { histories } = await playScenario(play, engine, { home: home() });
    expect(engine.compressCalls).toHaveLength(1);
    for (const message of engine.compressCalls[0]!) expect(message.message_uid).toMatch(/^[0-9a-f]{32}$/);
    for (const message of engine.ends[0]!.messages) expect(message.message_uid).toMatch(/^[0-9a-f]{32}$/);
    for (const message of histories["s1"]!) expect(message.message_uid).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe("WIRE-2: estimates ignore persistence-only fields", () => {
  it("the preflight estimate of a history full of uids equals the estimate of its wire copy", async () => {
    const engine = new ObservingEngine();
    const seen: number[] = [];
    engine.should_compress = (tokens?: number) => {
      seen.push(tokens ?? -1);
      return false;
    };
    const { trace } = await playScenario(scenario([turn("hi", "hello"), turn("again", "sure")]), engine, { home: home() });
    const history = engine.ends[0]!.messages.slice(0, 4);
    expect(history.every((message) => typeof message.message_uid === "string")).toBe(true);
    // seen: per turn the preflight's figure, then the pre-API gate's figure for the assembled request.
    expect(seen[2]).toBe(estimateTokensRough(stripAll(history)));
    const request = eventsOf(trace, "request")[1]!;
    expect(seen[3]).toBe(estimateTokensRough(request.messages));
    expect(request.promptTokens).toBe(estimateTokensExact(stripAll(history)));
  });
});
