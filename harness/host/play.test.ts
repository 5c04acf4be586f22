import { describe, expect, it } from "vitest";
import type { Message } from "../contract/types.ts";
import { serializeTraceWithoutDurations } from "../trace/jsonl.ts";
import { buildScenario } from "../../scenarios/catalogue/index.ts";
import { playScenario } from "./play.ts";
import { eventsOf, fixtureScenario, sandboxesPerTest, scenario, turn } from "./test-support.ts";
import { MinimalEngine } from "../testkit/minimal-engine.ts";

const home = sandboxesPerTest();

describe("determinism", () => {
  it("the same scenario and seed give byte-identical traces apart from durations", async () => {
    const first = await playScenario(fixtureScenario(), new MinimalEngine(), { home: home() });
    const second = await playScenario(fixtureScenario(), new MinimalEngine(), { home: home() });
    expect(serializeTraceWithoutDurations(second.trace)).toBe(serializeTraceWithoutDurations(first.trace));
    const reseeded = await playScenario({ ...fixtureScenario(), seed: 8 }, new MinimalEngine(), { home: home() });
    expect(serializeTraceWithoutDurations(reseeded.trace)).not.toBe(serializeTraceWithoutDurations(first.trace));
  });

  it("holds for a store upgraded from v30 with an older build writing into it (uids minted in SQL)", async () => {
    const upgrade = buildScenario("schema-upgrade");
    expect(upgrade.legacyStore).toBeDefined();
    expect(upgrade.schedule.some((step) => step.kind === "event" && step.event.type === "legacy-write")).toBe(true);
    const first = await playScenario(upgrade, new MinimalEngine(), { home: home() });
    const second = await playScenario(upgrade, new MinimalEngine(), { home: home() });
    expect(serializeTraceWithoutDurations(second.trace)).toBe(serializeTraceWithoutDurations(first.trace));
  });
});

describe("THR-2: sessions interleave on one engine", () => {
  it("runs two sessions' turns side by side and keeps each session's messages its own", async () => {
    const engine = new MinimalEngine();
    const seen: Array<[string, string]> = [];
    engine.select_context = async (request: Message[]) => {
      await Promise.resolve();
      seen.push([String(request[0]!.content), String(request.at(-1)!.content)]);
      return null;
    };
    const { trace } = await playScenario(fixtureScenario(), engine, { home: home() });
    const sessions = trace.map((event) => event.session).filter((session) => session !== null);
    const firstAlphaEnd = trace.findIndex((event) => event.type === "turn-end" && event.session === "alpha");
    const firstAlphaRequest = trace.findIndex((event) => event.type === "request" && event.session === "alpha");
    const betweenOwners = new Set(trace.slice(firstAlphaRequest, firstAlphaEnd).map((event) => event.session));
    expect(betweenOwners).toContain("beta");
    expect(new Set(sessions)).toEqual(new Set(["alpha", "beta"]));
    for (const request of eventsOf(trace, "request")) {
      const system = String(request.messages[0]!.content);
      expect(system).toBe(request.session === "alpha" ? "You are a careful coding assistant." : "You are a terse research assistant.");
    }
    expect(seen.length).toBe(eventsOf(trace, "request").length);
  });
});

describe("TOOL-3: engine tools", () => {
  it("offers the engine's tools, skips a colliding name, routes calls and turns an exception into an error result", async () => {
    const engine = new MinimalEngine();
    const handled: Array<[string, Record<string, unknown>, number]> = [];
    engine.get_tool_schemas = () => [
      { name: "ctx_search", description: "search the context", parameters: { type: "object", properties: {} } },
      { type: "function", function: { name: "ctx_expand", description: "expand", parameters: { type: "object" } } } as never,
      { name: "read_file", description: "collides with the host's tool", parameters: { type: "object" } },
      { description: "no name", parameters: {} } as never,
    ];
    engine.handle_tool_call = (name: string, args: Record<string, unknown>, options?: { messages?: Message[] }) => {
      handled.push([name, args, options?.messages?.length ?? -1]);
      if (name === "ctx_expand") throw new Error("index missing");
      return JSON.stringify({ results: [String(args["query"])] });
    };
    const play = scenario([
      {
        user: "find it",
        steps: [
          {
            content: null,
            toolCalls: [
              { id: "t1", name: "ctx_search", arguments: '{"query":"orion"}', result: "unused: the engine answers" },
              { id: "t2", name: "ctx_expand", arguments: "{}", result: "unused" },
              { id: "t3", name: "read_file", arguments: '{"path":"a"}', result: "file body" },
            ],
          },
          { content: "found" },
        ],
      },
    ]);
    const { trace, histories } = await playScenario(play, engine, { home: home() });
    const tools = eventsOf(trace, "request")[0]!.tools;
    expect(tools.filter((name) => name === "read_file")).toHaveLength(1);
    expect(tools).toContain("ctx_search");
    expect(tools).toContain("ctx_expand");
    expect(eventsOf(trace, "tool-call").map((call) => [call.name, call.routedTo])).toEqual([
      ["ctx_search", "engine"],
      ["ctx_expand", "engine"],
      ["read_file", "script"],
    ]);
    expect(handled.map(([name]) => name)).toEqual(["ctx_search", "ctx_expand"]);
    expect(handled[0]![1]).toEqual({ query: "orion" });
    const results = histories["s1"]!.filter((message) => message.role === "tool").map((message) => message.content);
    expect(results).toEqual([
      JSON.stringify({ results: ["orion"] }),
      JSON.stringify({ error: "Context engine tool 'ctx_expand' failed: index missing" }),
      "file body",
    ]);
    expect(eventsOf(trace, "warning").map((warning) => warning.message)).toEqual([
      "Context engine tool 'read_file' collides with an existing tool; the original owner keeps it",
      "Context engine returned a tool schema with no resolvable name; skipping",
    ]);
  });
});

describe("host events", () => {
  it("branch and export-import copy the session with its uids; the new sessions play on (UID-3)", async () => {
    const play = fixtureScenario();
    play.schedule = [
      { kind: "turn", session: "alpha", turn: 0 },
      { kind: "event", session: "alpha", event: { type: "branch", newSession: "alpha-branch" } },
      { kind: "event", session: "alpha", event: { type: "export-import", newSession: "alpha-copy" } },
      { kind: "event", session: "alpha", event: { type: "restart" } },
      { kind: "event", session: "alpha", event: { type: "content-rewrite", messageIndex: 1, content: "rewritten question" } },
      { kind: "event", session: "alpha", event: { type: "duplicate-row", messageIndex: 1, content: "edited copy" } },
      { kind: "event", session: "alpha", event: { type: "rewind", keepMessages: 3 } },
    ];
    const { trace, histories } = await playScenario(play, new MinimalEngine(), { home: home() });
    const original = eventsOf(trace, "host-event")[0]!.history!;
    const uids = (messages: Message[]) => messages.map((message) => message.message_uid);
    expect(uids(histories["alpha-branch"]!)).toEqual(uids(original));
    expect(uids(histories["alpha-copy"]!)).toEqual(uids(original));
    const [, , restarted, rewritten, duplicated, rewound] = eventsOf(trace, "host-event").map((event) => event.history!);
    expect(uids(restarted!)).toEqual(uids(original));
    expect(rewritten![1]).toMatchObject({ content: "rewritten question", message_uid: original[1]!.message_uid });
    expect(duplicated!.filter((message) => message.message_uid === original[1]!.message_uid).map((message) => message.content)).toEqual([
      "rewritten question",
      "edited copy",
    ]);
    expect(rewound).toHaveLength(3);
    const lifecycle = eventsOf(trace, "engine-call").filter((call) => call.hook.startsWith("on_session")).map((call) => `${call.hook}:${call.session}`);
    expect(lifecycle).toContain("on_session_start:alpha-branch");
    expect(lifecycle).toContain("on_session_start:alpha-copy");
    expect(lifecycle.filter((entry) => entry === "on_session_end:alpha")).toHaveLength(2);
  });
});

describe("CACHE-1: the prompt cache sees a stable prefix", () => {
  it("a later request reads the prefix an earlier one wrote", async () => {
    const { trace } = await playScenario(fixtureScenario(), new MinimalEngine(), { home: home() });
    const beta = eventsOf(trace, "request").filter((request) => request.session === "beta");
    expect(beta[0]!.cacheReadTokens).toBe(0);
    expect(beta[0]!.cacheWriteTokens).toBeGreaterThan(0);
    expect(beta[1]!.cacheReadTokens).toBeGreaterThan(0);
    expect(beta[1]!.cacheReadTokens).toBeLessThan(beta[1]!.promptTokens);
  });
});

describe("imported scenarios replay their recorded identity", () => {
  it("keeps the recorded uids of system, user, assistant and result messages; a missing result stays missing", async () => {
    const uid = (digit: string) => digit.repeat(32);
    const play = scenario([
      {
        user: "check the logs",
        userMessageUid: uid("2"),
        steps: [
          {
            content: null,
            messageUid: uid("3"),
            toolCallUids: { c1: uid("4"), c2: uid("7") },
            toolCalls: [
              { id: "c1", name: "terminal", arguments: "{}", result: "ok", resultMessageUid: uid("5"), resultToolCallUid: uid("4") },
              { id: "c2", name: "terminal", arguments: "{}", result: "never recorded", resultMissing: true },
            ],
          },
          { content: "done", messageUid: uid("6") },
        ],
      },
    ]);
    play.sessions[0]!.systemMessageUid = uid("1");
    const { trace, histories } = await playScenario(play, new MinimalEngine(), { home: home() });
    const history = histories["s1"]!;
    expect(history.map((message) => message.message_uid)).toEqual([uid("1"), uid("2"), uid("3"), uid("5"), uid("6")]);
    expect(history[2]!._tool_call_uids).toEqual({ c1: uid("4"), c2: uid("7") });
    expect(history[3]!._tool_call_uid).toBe(uid("4"));
    const second = eventsOf(trace, "request")[1]!;
    expect(second.messages.filter((message) => message.role === "tool").map((message) => message.tool_call_id)).toEqual(["c1", "c2"]);
  });
});

describe("a hostile engine never stops the run", () => {
  it("throwing hooks and getters become warnings and error results; the histories are intact", async () => {
    const engine = new MinimalEngine();
    Object.defineProperty(engine, "context_length", {
      get: () => {
        throw new Error("no context length");
      },
      set: () => undefined,
    });
    engine.update_from_response = () => {
      throw new Error("usage rejected");
    };
    engine.should_compress = () => {
      throw new Error("cannot decide");
    };
    engine.get_tool_schemas = () => "not a list" as never;
    engine.on_session_start = () => Promise.reject(new Error("start failed"));
    engine.on_session_end = () => {
      throw new Error("end failed");
    };
    const { trace, histories } = await playScenario(fixtureScenario(), engine, { home: home() });
    expect(eventsOf(trace, "turn-end").map((event) => event.exitReason)).toEqual(["completed", "completed", "completed", "completed"]);
    expect(histories["alpha"]!.at(-1)?.content).toBe("We read the orion notes and found the key.");
    const errors = eventsOf(trace, "engine-call").filter((event) => event.resultKind === "error").map((event) => event.hook);
    expect(new Set(errors)).toEqual(new Set(["update_from_response", "should_compress", "on_session_start", "on_session_end"]));
    expect(eventsOf(trace, "engine-call")[0]!.stateAfter.context_length).toBeNaN();
    expect(eventsOf(trace, "warning").some((warning) => warning.message.includes("on_session_end hook failed"))).toBe(true);
  });
});

describe("UID-5: a restart restores with alternation repaired", () => {
  it("merges the user messages an interrupted turn left adjacent, keeping the first uid and witnessing the second", async () => {
    const play = scenario([{ user: "first ask", steps: [{ content: null, fault: { kind: "interrupted" } }] }, turn("second ask", "answer"), turn("third ask", "ok")], {
      schedule: [
        { kind: "turn", session: "s1", turn: 0 },
        { kind: "turn", session: "s1", turn: 1 },
        { kind: "event", session: "s1", event: { type: "restart" } },
        { kind: "turn", session: "s1", turn: 2 },
      ],
    });
    const engine = new MinimalEngine();
    const seen: Message[][] = [];
    engine.should_compress_preflight = (messages: Message[]) => {
      seen.push(messages);
      return false;
    };
    const { trace } = await playScenario(play, engine, { home: home() });
    const before = eventsOf(trace, "request")[1]!;
    expect(before.messages.map((message) => message.content)).toEqual(["You are a test assistant.", "first ask\n\nsecond ask"]);
    const restored = eventsOf(trace, "host-event")[0]!.history!;
    const firstUid = seen[1]![1]!.message_uid;
    expect(seen[1]![2]).toEqual({ role: "user", content: "second ask" });
    const secondUid = (restored[1]!._absorbed_message_uids ?? [])[0];
    expect(secondUid).toMatch(/^[0-9a-f]{32}$/);
    expect(secondUid).not.toBe(firstUid);
    expect(restored[1]).toMatchObject({ content: "first ask\n\nsecond ask", message_uid: firstUid, _absorbed_message_uids: [secondUid] });
    expect(seen[2]![1]).toMatchObject({ message_uid: firstUid, _absorbed_message_uids: [secondUid] });
  });
});
