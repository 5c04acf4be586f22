import { describe, expect, it } from "vitest";
import { ContextEngine } from "../contract/context-engine.ts";
import type { Message } from "../contract/types.ts";
import { TraceRecorder } from "../trace/recorder.ts";
import { assembleRequest, type AssembledRequest } from "./assemble.ts";
import { UNANSWERED_TOOL_RESULT } from "./sanitize.ts";
import { MinimalEngine } from "../testkit/minimal-engine.ts";
import { ReferenceViews } from "./reference-views.ts";

const history = (): Message[] => [
  { role: "system", content: "sys", message_uid: "a".repeat(32), timestamp: 1 },
  { role: "user", content: "first", message_uid: "b".repeat(32), display_metadata: { x: 1 } },
  {
    role: "assistant",
    content: null,
    tool_calls: [{ id: "c1", type: "function", function: { name: "read_file", arguments: "{}" } }],
    message_uid: "c".repeat(32),
    _tool_call_uids: { c1: "d".repeat(32) },
  },
  { role: "tool", tool_call_id: "c1", content: "file text", message_uid: "e".repeat(32), _tool_call_uid: "d".repeat(32) },
  { role: "assistant", content: "done", message_uid: "f".repeat(32) },
  { role: "user", content: "second", message_uid: "1".repeat(32) },
];

function sync(result: AssembledRequest | Promise<AssembledRequest>): AssembledRequest {
  if (result instanceof Promise) throw new Error("expected a synchronous assembly");
  return result;
}

class SelectingEngine extends MinimalEngine {
  calls = 0;
  constructor(readonly choose: (request: Message[], options: Record<string, unknown>) => unknown) {
    super();
  }
  override select_context(request: Message[], options?: object): never {
    this.calls++;
    return this.choose(request, options as Record<string, unknown>) as never;
  }
}

describe("SEL-1 and CACHE-1: an inherited select_context is never called", () => {
  it("skips the inherited default even when the base method would throw, synchronously", () => {
    const original = ContextEngine.prototype.select_context;
    ContextEngine.prototype.select_context = () => {
      throw new Error("the base hook must not run");
    };
    try {
      const recorder = new TraceRecorder();
      const result = assembleRequest(history(), new MinimalEngine(), { session: "s", incomingIndex: 5, recorder });
      expect(result).not.toBeInstanceOf(Promise);
      expect(sync(result).selection).toBe("skipped-inherited");
      expect(recorder.events).toHaveLength(0);
    } finally {
      ContextEngine.prototype.select_context = original;
    }
  });

  it("sends exactly the bytes a host without an engine sends", () => {
    const withEngine = sync(assembleRequest(history(), new MinimalEngine(), { session: "s", incomingIndex: 5 }));
    const without = sync(assembleRequest(history(), null, { session: "s", incomingIndex: 5 }));
    expect(JSON.stringify(withEngine.messages)).toBe(JSON.stringify(without.messages));
    expect(withEngine.cacheBreakpoints).toEqual(without.cacheBreakpoints);
    expect(without.selection).toBe("no-engine");
  });
});

describe("WIRE-1: persistence-only fields never reach the provider", () => {
  it("strips the transcript's identity and bookkeeping fields", () => {
    const { messages } = sync(assembleRequest(history(), null, { session: "s", incomingIndex: 5 }));
    for (const message of messages) {
      for (const field of ["message_uid", "_tool_call_uids", "_tool_call_uid", "timestamp", "display_metadata"]) expect(message).not.toHaveProperty(field);
    }
  });

  it("strips them again from a selection that hands back history copies", () => {
    const engine = new SelectingEngine((_request, options) => options["conversation_messages"]);
    const { messages, selection } = sync(assembleRequest(history(), engine, { session: "s", incomingIndex: 5 }));
    expect(selection).toBe("replaced");
    expect(JSON.stringify(messages)).not.toMatch(/message_uid|_tool_call_uid|display_metadata|timestamp/);
  });
});

describe("SEL-2: the fail-open table", () => {
  const baseline = JSON.stringify(sync(assembleRequest(history(), null, { session: "s", incomingIndex: 5 })).messages);
  const cases: Array<[string, () => unknown, string]> = [
    ["an exception", () => { throw new Error("selection broke"); }, "fail-open-error"],
    ["null", () => null, "none"],
    ["undefined", () => undefined, "none"],
    ["an empty list", () => [], "fail-open-invalid"],
    ["an object (non-list)", () => ({ role: "user", content: "x" }), "fail-open-invalid"],
    ["a string (non-list)", () => "messages", "fail-open-invalid"],
    ["a list holding a non-object", () => [{ role: "user", content: "x" }, "stray"], "fail-open-invalid"],
    ["a list holding null", () => [null], "fail-open-invalid"],
    ["a rejected promise", () => Promise.reject(new Error("late failure")), "fail-open-error"],
    ["a promise of null", () => Promise.resolve(null), "none"],
  ];
  for (const [label, choose, outcome] of cases) {
    it(`${label} leaves the request byte-identical (${outcome})`, async () => {
      const engine = new SelectingEngine(choose);
      const result = await assembleRequest(history(), engine, { session: "s", incomingIndex: 5 });
      expect(engine.calls).toBe(1);
      expect(result.selection).toBe(outcome);
      expect(JSON.stringify(result.messages)).toBe(baseline);
      expect(result.warning === null).toBe(outcome === "none");
    });
  }

  it("uses a valid list for that call only, as the very list object when it needs no repair", () => {
    const chosen: Message[] = [{ role: "system", content: "sys" }, { role: "user", content: "only this" }];
    const engine = new SelectingEngine(() => chosen);
    const transcript = history();
    const before = JSON.stringify(transcript);
    const result = sync(assembleRequest(transcript, engine, { session: "s", incomingIndex: 5 }));
    expect(result.selection).toBe("replaced");
    expect(result.messages).toBe(chosen);
    expect(JSON.stringify(transcript)).toBe(before);
  });

  it("passes structural clones: in-place edits of the conversation and incoming message never reach history", () => {
    const transcript = history();
    const before = JSON.stringify(transcript);
    const engine = new SelectingEngine((_request, options) => {
      const conversation = options["conversation_messages"] as Message[];
      conversation.push({ role: "user", content: "injected" });
      conversation[1]!.content = "edited";
      (conversation[2]!.tool_calls as Array<{ id: string }>)[0]!.id = "mutated";
      (options["incoming_message"] as Message).content = "edited incoming";
      expect(options["budget_tokens"]).toBe(0);
      return null;
    });
    sync(assembleRequest(transcript, engine, { session: "s", incomingIndex: 5 }));
    expect(JSON.stringify(transcript)).toBe(before);
  });
});

describe("SEL-3: sanitizers and the cache plan run on the selected list", () => {
  it("repairs a selection: unknown role dropped, orphan result dropped, unanswered call answered, users merged", () => {
    const engine = new SelectingEngine(() => [
      { role: "system", content: "sys" },
      { role: "narrator", content: "not a role" },
      { role: "tool", tool_call_id: "ghost", content: "orphan" },
      { role: "user", content: "a" },
      { role: "user", content: "b" },
      { role: "assistant", content: null, tool_calls: [{ id: "k", type: "function", function: { name: "terminal", arguments: "{}" } }] },
      { role: "user", content: "c" },
    ]);
    const result = sync(assembleRequest(history(), engine, { session: "s", incomingIndex: 5 }));
    expect(result.messages).toEqual([
      { role: "system", content: "sys" },
      { role: "user", content: "a\n\nb" },
      { role: "assistant", content: null, tool_calls: [{ id: "k", type: "function", function: { name: "terminal", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "k", content: UNANSWERED_TOOL_RESULT },
      { role: "user", content: "c" },
    ]);
    expect(result.cacheBreakpoints).toEqual([0, 2, 3, 4]);
  });

  it("puts breakpoints on the system prompt and the last three non-system messages", () => {
    const { cacheBreakpoints, messages } = sync(assembleRequest(history(), null, { session: "s", incomingIndex: 5 }));
    expect(messages).toHaveLength(6);
    expect(cacheBreakpoints).toEqual([0, 3, 4, 5]);
  });
});

describe("SEL-4: a selection's edits of its request stay in that request", () => {
  /** Written by the store: each message carries its row's timestamp and uid, so the host may reuse what it made from it. */
  const persisted = (): Message[] =>
    history().map((message, index) => ({ ...message, timestamp: 100 + index, message_uid: message["message_uid"] ?? `${index}`.repeat(32) }));
  const argumentsOf = (message: Message | undefined) =>
    (message?.tool_calls as Array<{ function: { arguments: string } }> | undefined)?.[0]?.function.arguments;

  for (const [label, withViews, withRecorder] of [
    ["without views", false, false],
    ["with the session's views", true, false],
    ["with the session's views, recorded", true, true],
  ] as const) {
    it(`an in-place edit of a nested value (tool call arguments) never reaches history or a later request (${label})`, async () => {
      const transcript = persisted();
      transcript[2]!.tool_calls = [{ id: "c1", type: "function", function: { name: "read_file", arguments: '{"q": "x"}' } }];
      const before = JSON.stringify(transcript);
      const seen: Array<string | undefined> = [];
      const engine = new SelectingEngine((request) => {
        seen.push(argumentsOf(request[2]));
        if (engine.calls === 1) {
          (request[2]!.tool_calls as Array<{ function: { arguments: string } }>)[0]!.function.arguments = '{"q": "edited"}';
          (request[2]!.tool_calls as unknown[]).push({ id: "c9", type: "function", function: { name: "x", arguments: "{}" } });
          return request;
        }
        return null;
      });
      const state = () => ({
        session: "s",
        incomingIndex: 5,
        ...(withViews ? { views } : {}),
        ...(withRecorder ? { recorder } : {}),
      });
      const views = new ReferenceViews();
      const recorder = new TraceRecorder();
      const first = await assembleRequest(transcript, engine, state());
      expect(first.selection).toBe("replaced");
      expect(argumentsOf(first.messages[2])).toBe('{"q": "edited"}');
      for (let call = 2; call <= 3; call++) {
        const later = await assembleRequest(transcript, engine, state());
        expect(later.selection).toBe("none");
        expect(argumentsOf(later.messages[2])).toBe('{"q": "x"}');
        expect(later.messages[2]!.tool_calls as unknown[]).toHaveLength(1);
      }
      expect(seen).toEqual(['{"q": "x"}', '{"q": "x"}', '{"q": "x"}']);
      expect(JSON.stringify(transcript)).toBe(before);
    });
  }
});
