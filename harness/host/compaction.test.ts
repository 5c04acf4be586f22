import { describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { join } from "node:path";
import type { CompressOptions, Message } from "../contract/types.ts";
import type { CompactionOutcome } from "../trace/events.ts";
import type { HostEvent, Scenario } from "../../scenarios/format.ts";
import { playScenario } from "./play.ts";
import { eventsOf, sandboxesPerTest, scenario, turn } from "./test-support.ts";
import { MinimalEngine } from "../testkit/minimal-engine.ts";

const home = sandboxesPerTest();

/** Three turns, then the given host events on s1. */
function withEvents(...events: HostEvent[]): Scenario {
  return scenario([turn("one", "a"), turn("two", "b"), turn("three", "c")], {
    schedule: [
      { kind: "turn", session: "s1", turn: 0 },
      { kind: "turn", session: "s1", turn: 1 },
      { kind: "turn", session: "s1", turn: 2 },
      ...events.map((event) => ({ kind: "event" as const, session: "s1", event })),
    ],
  });
}

function activeRows(path: string): unknown[] {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare("SELECT id, role, content, message_uid, active FROM messages ORDER BY id").all();
  } finally {
    db.close();
  }
}

describe("THR-3: a timed-out pass leaves the session exactly as before", () => {
  const engines: Array<[string, (engine: MinimalEngine) => void]> = [
    ["a synchronous engine that mutates its snapshot", () => undefined],
    [
      "an async engine that mutates its snapshot and answers later",
      (engine) => {
        const compress = engine.compress.bind(engine);
        engine.compress = async (messages, current, focus, options) => {
          messages[1]!.content = "mutated in place";
          await new Promise((resolve) => setTimeout(resolve, 5));
          return compress(messages, current, focus, options);
        };
      },
    ],
  ];
  for (const [label, adapt] of engines) {
    it(`timeout-next-compaction times out deterministically with ${label}`, async () => {
      const engine = new MinimalEngine();
      const signals: Array<AbortSignal | undefined> = [];
      let settledBeforeNextStep = false;
      const inner = engine.compress.bind(engine);
      engine.compress = (messages: Message[], current?: number | null, focus?: string | null, options?: CompressOptions) => {
        signals.push(options?.signal);
        messages[1]!.content = "mutated in place";
        const result = inner(messages, current, focus, options);
        return result;
      };
      adapt(engine);
      const wrapped = engine.compress.bind(engine);
      engine.compress = (...args: Parameters<MinimalEngine["compress"]>) => {
        const result = wrapped(...args);
        if (result instanceof Promise) return result.finally(() => (settledBeforeNextStep = true));
        settledBeforeNextStep = true;
        return result;
      };
      const sandboxHome = home();
      const { trace, histories } = await playScenario(withEvents({ type: "timeout-next-compaction" }, { type: "compress" }, { type: "compress" }), engine, {
        home: sandboxHome,
      });
      const [timedOut, committed] = eventsOf(trace, "compaction");
      expect(timedOut?.outcome).toBe("timeout");
      expect(signals.map((signal) => signal?.aborted)).toEqual([true, false]);
      expect(settledBeforeNextStep).toBe(true);
      const hostEvents = eventsOf(trace, "host-event");
      const afterTimeout = hostEvents[1]!.history!;
      expect(afterTimeout).toEqual(timedOut!.input);
      expect(afterTimeout.map((message) => message.content)).toEqual(["You are a test assistant.", "one", "a", "two", "b", "three", "c"]);
      expect(eventsOf(trace, "engine-call").filter((event) => event.hook === "compress").map((event) => event.resultKind)).toEqual(["timeout", "list"]);
      expect(committed?.outcome).toBe("committed");
      expect(histories["s1"]!.some((message) => message.content === "mutated in place")).toBe(false);
    });
  }

  it("a pass slower than the host timeout is aborted and its late result discarded", async () => {
    const engine = new MinimalEngine();
    let lateResultReady = false;
    engine.compress = async (messages: Message[], _current?: number | null, _focus?: string | null, options?: CompressOptions) => {
      await new Promise((resolve) => setTimeout(resolve, 80));
      lateResultReady = options?.signal?.aborted === true;
      return [messages[0]!, { role: "user", content: "late summary" }];
    };
    const sandboxHome = home();
    const { trace, histories } = await playScenario(withEvents({ type: "compress" }), engine, { home: sandboxHome, compactionTimeoutMs: 10 });
    expect(eventsOf(trace, "compaction").map((event) => event.outcome)).toEqual(["timeout"]);
    expect(lateResultReady).toBe(true);
    expect(histories["s1"]).toHaveLength(7);
    expect((activeRows(join(sandboxHome, "sessions.db")) as Array<{ active: number }>).every((row) => row.active === 1)).toBe(true);
  });
});

describe("the host's refusals leave history unchanged", () => {
  const cases: Array<[string, (messages: Message[]) => unknown, CompactionOutcome]> = [
    ["an empty list", () => [], "refused-empty"],
    ["the input unchanged", (messages) => messages, "refused-unchanged"],
    ["a list that grew", (messages) => [...messages, { role: "user", content: "x".repeat(4000) }], "refused-grew"],
    ["a non-list", () => ({ messages: [] }), "refused-invalid"],
    ["a list holding a string", (messages) => [messages[0], "stray"], "refused-invalid"],
    ["an exception", () => { throw new Error("compress broke"); }, "error"],
  ];
  for (const [label, answer, outcome] of cases) {
    it(`${label} → ${outcome}`, async () => {
      const engine = new MinimalEngine();
      engine.compress = (messages: Message[]) => answer(messages) as Message[];
      const { trace, histories } = await playScenario(withEvents({ type: "compress" }), engine, { home: home() });
      const [event] = eventsOf(trace, "compaction");
      expect(event?.outcome).toBe(outcome);
      expect(histories["s1"]!.map((message) => message.content)).toEqual(["You are a test assistant.", "one", "a", "two", "b", "three", "c"]);
      expect(eventsOf(trace, "engine-call").filter((call) => call.hook === "on_session_start")).toHaveLength(1);
    });
  }
});

describe("a commit", () => {
  it("keeps engine-stamped uids (UID-6), sets last_prompt_tokens = -1, calls on_session_start(boundary_reason=compression)", async () => {
    const engine = new MinimalEngine();
    const starts: Array<Record<string, unknown> | undefined> = [];
    engine.on_session_start = (_session: string, info?: Record<string, unknown>) => void starts.push(info);
    const summaryUid = "5".repeat(32);
    engine.compress = (messages: Message[]) => [messages[0]!, { role: "user", content: "summary", message_uid: summaryUid }, ...messages.slice(-2)];
    const { trace, histories } = await playScenario(withEvents({ type: "compress", focus_topic: "deploys" }), engine, { home: home() });
    const [event] = eventsOf(trace, "compaction");
    expect(event).toMatchObject({ outcome: "committed", trigger: "manual", focus_topic: "deploys", mode: "in-place" });
    const history = histories["s1"]!;
    expect(history.map((message) => message.content)).toEqual(["You are a test assistant.", "summary", "three", "c"]);
    expect(history[1]!.message_uid).toBe(summaryUid);
    expect(history[0]!.message_uid).toBe(event!.input[0]!.message_uid);
    expect(history[3]!.message_uid).toBe(event!.input[6]!.message_uid);
    expect(starts.at(-1)).toEqual({ boundary_reason: "compression", old_session_id: "s1", platform: "cli", conversation_id: null });
    const boundary = eventsOf(trace, "engine-call").filter((call) => call.hook === "on_session_start").at(-1)!;
    expect(boundary.stateAfter.last_prompt_tokens).toBe(-1);
  });

  it("by rotation writes a child session whose rows keep the engine's uids", async () => {
    const engine = new MinimalEngine();
    const summaryUid = "6".repeat(32);
    engine.compress = (messages: Message[]) => [messages[0]!, { role: "user", content: "summary", message_uid: summaryUid }, ...messages.slice(-2)];
    const sandboxHome = home();
    const { trace, histories } = await playScenario(withEvents({ type: "rotate", newSession: "s1-child" }), engine, { home: sandboxHome });
    expect(eventsOf(trace, "compaction")[0]).toMatchObject({ outcome: "committed", mode: "rotation" });
    expect(histories["s1-child"]!.map((message) => message.content)).toEqual(["You are a test assistant.", "summary", "three", "c"]);
    expect(histories["s1-child"]![1]!.message_uid).toBe(summaryUid);
    expect(histories["s1"]).toHaveLength(7);
    const boundary = eventsOf(trace, "engine-call").filter((call) => call.hook === "on_session_start").at(-1)!;
    expect(boundary.stateAfter.last_prompt_tokens).toBe(-1);
    const rows = activeRows(join(sandboxHome, "sessions.db")) as Array<{ message_uid: string }>;
    expect(rows.some((row) => row.message_uid === summaryUid)).toBe(true);
  });

  it("passes force and focus_topic for a manual pass, a signal always, and memory_context redacted and capped", async () => {
    const engine = new MinimalEngine();
    const seen: Array<[string | null | undefined, CompressOptions | undefined]> = [];
    const inner = engine.compress.bind(engine);
    engine.compress = (messages: Message[], current?: number | null, focus?: string | null, options?: CompressOptions) => {
      seen.push([focus, options]);
      return inner(messages, current, focus, options);
    };
    const memory = `token sk-${"a".repeat(20)} at https://user:hunter2@example.com ${"m".repeat(7000)}`;
    await playScenario(withEvents({ type: "compress", focus_topic: "orion" }), engine, { home: home(), memoryContext: memory });
    const [focus, options] = seen[0]!;
    expect(focus).toBe("orion");
    expect(options?.force).toBe(true);
    expect(options?.signal).toBeInstanceOf(AbortSignal);
    expect(options?.memory_context).toHaveLength(4000 + "\n...[memory provider context truncated]...\n".length + 1500);
    expect(options?.memory_context).not.toMatch(/hunter2|sk-aaaa/);
  });
});

describe("overflow and the pool", () => {
  it("a request over the context window is rejected and triggers an overflow compaction, then the retry goes through", async () => {
    const engine = new MinimalEngine();
    engine.should_compress = () => false;
    const long = "lorem ipsum dolor sit amet ".repeat(80);
    const play = scenario([turn(long, "ok"), turn(long, "ok"), turn("short", "done")], { context_length: 800 });
    const { trace } = await playScenario(play, engine, { home: home() });
    const overflow = eventsOf(trace, "response").find((response) => response.fault === "overflow");
    expect(overflow).toBeDefined();
    expect(eventsOf(trace, "compaction").map((event) => [event.trigger, event.outcome])).toContainEqual(["overflow", "committed"]);
    expect(eventsOf(trace, "turn-end").at(-1)?.exitReason).toBe("completed");
  });

  it("bounds concurrent passes across sessions by the pool size and runs one pass per session at a time", async () => {
    for (const poolSize of [1, 2]) {
      const engine = new MinimalEngine();
      let running = 0;
      let peak = 0;
      const inner = engine.compress.bind(engine);
      engine.compress = async (messages: Message[]) => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running--;
        return inner(messages);
      };
      const play = scenario([turn("one", "a"), turn("two", "b"), turn("three", "c")], {
        sessions: ["s1", "s2", "s3"].map((id) => ({ id, systemPrompt: `system ${id}`, turns: [turn("one", "a"), turn("two", "b"), turn("three", "c")] })),
        schedule: ["s1", "s2", "s3"].flatMap((session) => [
          { kind: "turn" as const, session, turn: 0 },
          { kind: "turn" as const, session, turn: 1 },
          { kind: "event" as const, session, event: { type: "compress" as const } },
        ]),
      });
      const { trace } = await playScenario(play, engine, { home: home(), poolSize });
      expect(peak).toBe(poolSize);
      expect(eventsOf(trace, "compaction").map((event) => event.outcome)).toEqual(["committed", "committed", "committed"]);
    }
  });
});

/** An engine whose should_compress says yes once, at the first question after two responses: the preflight of turn three. */
function compactingAtTurnThree(): MinimalEngine {
  const engine = new MinimalEngine();
  let responses = 0;
  let fired = false;
  engine.update_from_response = () => void responses++;
  engine.should_compress = () => (responses === 2 && !fired ? (fired = true) : false);
  return engine;
}

const threeTurns = () => scenario([turn("one", "a"), turn("two", "b"), turn("three", "c")]);

describe("preflight runs before the turn-start flush (CMP-9, UID-2)", () => {
  for (const keepUser of [true, false]) {
    it(`compress sees the new user message without a uid; it is stored once whether the engine ${keepUser ? "keeps" : "drops"} it`, async () => {
      const engine = compactingAtTurnThree();
      engine.compress = (messages: Message[]) => {
        engine.compressCalls.push(messages);
        const last = messages.at(-1)!;
        return [messages[0]!, { role: "user", content: "summary of the first turns" }, ...(keepUser ? [last] : [])];
      };
      const { histories } = await playScenario(threeTurns(), engine, { home: home() });
      const input = engine.compressCalls[0]!;
      expect(input.at(-1)).toEqual({ role: "user", content: "three" });
      expect(input.slice(0, -1).every((message) => typeof message.message_uid === "string")).toBe(true);
      const history = histories["s1"]!;
      expect(history.map((message) => message.content)).toEqual(["You are a test assistant.", "summary of the first turns", "three", "c"]);
      expect(history.every((message) => typeof message.message_uid === "string")).toBe(true);
    });
  }

  it("the trace records a pass's input as compress received it: the user message the flush stamps afterwards stays unstamped there", async () => {
    for (const answer of ["unchanged", "throws"] as const) {
      const engine = compactingAtTurnThree();
      // No commit: the flush then stamps the very user message object the pass saw.
      engine.compress = (messages: Message[]) => {
        engine.compressCalls.push(structuredClone(messages));
        if (answer === "throws") throw new Error("no summary today");
        return messages;
      };
      const { trace, histories } = await playScenario(threeTurns(), engine, { home: home() });
      const [pass] = eventsOf(trace, "compaction");
      expect(pass?.outcome, answer).toBe(answer === "throws" ? "error" : "refused-unchanged");
      expect(pass!.input, answer).toEqual(engine.compressCalls[0]);
      expect(pass!.input.at(-1), answer).toEqual({ role: "user", content: "three" });
      expect(histories["s1"]!.find((message) => message.content === "three")?.message_uid, "the flush stamped it").toEqual(expect.any(String));
      // The earlier messages were persisted when recorded, and read the same now.
      expect(pass!.input.slice(0, -1).every((message) => typeof message.message_uid === "string" && typeof message.timestamp === "number")).toBe(true);
    }
  });
});
