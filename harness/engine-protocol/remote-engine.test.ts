import { afterAll, afterEach, describe, expect, it } from "vitest";
import { overridesHook } from "../contract/context-engine.ts";
import { nativeCallFacts, nativeFacts, NativeValue } from "../contract/native.ts";
import type { Message } from "../contract/types.ts";
import { TraceRecorder } from "../trace/recorder.ts";
import { EngineLoadError } from "./family.ts";
import { PythonEngineFactory, type PythonEngineOptions } from "./hermes.ts";
import { ChannelClosed } from "./json-rpc.ts";
import { RemoteEngineError } from "./remote-engine.ts";
import { pluginsRoot, pythonEngine, trafficValidator } from "./test-support.ts";

const MESSAGES: Message[] = [
  { role: "system", content: "s", message_uid: "0".repeat(32) },
  { role: "user", content: "a" },
  { role: "assistant", content: "b" },
  { role: "user", content: "c" },
];

const plugins = pluginsRoot();
const factories: PythonEngineFactory[] = [];
const traffics: Array<ReturnType<typeof trafficValidator>> = [];

afterAll(() => plugins.remove());
afterEach(async () => {
  await Promise.all(factories.splice(0).map((factory) => factory.disposeAll()));
  expect(traffics.splice(0).flatMap((traffic) => traffic.problems())).toEqual([]);
});

let counter = 0;
/** A fresh engine of a plugin whose engine class body gets `extra`. */
async function engineWith(extra = "", options: PythonEngineOptions = {}, files: Record<string, string> = {}) {
  const name = `engine${++counter}`;
  const directory = plugins.plugin(name, { "__init__.py": pythonEngine(name, extra), ...files });
  const traffic = trafficValidator();
  traffics.push(traffic);
  const factory = new PythonEngineFactory({ directory, selection: name, mode: "directory" }, { onMessage: traffic.onMessage, ...options });
  factories.push(factory);
  return factory.createFresh();
}

describe("RemoteEngine: the host's identity check (SEL-1) needs no round trip", () => {
  it("an engine that inherits select_context and on_turn_complete has the base class's own functions", async () => {
    const engine = await engineWith();
    expect(overridesHook(engine, "select_context")).toBe(false);
    expect(overridesHook(engine, "on_turn_complete")).toBe(false);
    expect(nativeFacts(engine)?.overrides["select_context"]).toBe(false);
  });

  it("an engine that overrides them gets forwarding hooks", async () => {
    const engine = await engineWith(
      "def select_context(self, request_messages, *, conversation_messages=None, incoming_message=None, budget_tokens=0):\n    return request_messages[-1:]\ndef on_turn_complete(self, messages, usage=None, **kwargs):\n    self.turns = getattr(self, 'turns', 0) + 1",
    );
    expect(overridesHook(engine, "select_context")).toBe(true);
    expect(overridesHook(engine, "on_turn_complete")).toBe(true);
    expect(await engine.select_context(MESSAGES, { conversation_messages: MESSAGES, incoming_message: MESSAGES[3]!, budget_tokens: 10 })).toEqual([MESSAGES[3]]);
    await engine.on_turn_complete(MESSAGES, null, { turn_id: "s:t:0", task_id: "t", api_call_count: 1, interrupted: true, failed: false, turn_exit_reason: "interrupted" });
    expect(nativeFacts(engine)?.attrs()["turns"]).toBe(1);
  });

  it("an engine that registers a post_llm_call hook (and inherits on_turn_complete) observes turns through it", async () => {
    const engine = await engineWith(
      "def __init__(self):\n    from hermes_cli.plugins import get_plugin_manager\n    get_plugin_manager()._hooks.setdefault('post_llm_call', []).append(lambda **kw: setattr(self, 'seen', kw['session_id']))",
    );
    expect(nativeFacts(engine)?.overrides["on_turn_complete"]).toBe(false);
    expect(nativeFacts(engine)?.hostHooks()).toEqual({ post_llm_call: 1 });
    expect(overridesHook(engine, "on_turn_complete")).toBe(true);
    await engine.on_turn_complete(MESSAGES, null, { turn_id: "sess-9:task:abcd1234", task_id: "task", api_call_count: 1, interrupted: false, failed: false, turn_exit_reason: "completed" });
    expect(nativeFacts(engine)?.attrs()["seen"]).toBe("sess-9");
  });
});

describe("RemoteEngine: the host's pre_llm_call hook", () => {
  it("fires once per turn and appends what it returns to the turn's user message, on a copy of the request", async () => {
    const engine = await engineWith(
      "def __init__(self):\n    from hermes_cli.plugins import get_plugin_manager\n    self.fired = 0\n    def inject(**kw):\n        self.fired += 1\n        return {'context': 'Recalled: the staging cluster is eu-2.'}\n    get_plugin_manager()._hooks.setdefault('pre_llm_call', []).append(inject)",
    );
    expect(overridesHook(engine, "select_context")).toBe(true);
    const request = structuredClone(MESSAGES);
    const options = { conversation_messages: structuredClone(MESSAGES), incoming_message: MESSAGES[3]!, budget_tokens: 8000 };
    const selected = (await engine.select_context(request, options)) as Message[];
    expect(selected).not.toBe(request);
    expect(selected.at(-1)?.content).toBe("c\n\nRecalled: the staging cluster is eu-2.");
    expect(request).toEqual(MESSAGES);
    await engine.select_context(request, options);
    expect(nativeFacts(engine)?.attrs()["fired"]).toBe(1);
  });
});

describe("RemoteEngine: attributes", () => {
  it("mirrors the remote fields after every call and sends host writes across", async () => {
    const engine = await engineWith("def get_status(self):\n    return {'last': self.last_prompt_tokens}");
    await engine.update_model({ model: "m", context_length: 8000 });
    expect([engine.context_length, engine.threshold_tokens, engine.threshold_percent]).toEqual([8000, 6000, 0.75]);
    await engine.update_from_response({ prompt_tokens: 1234, completion_tokens: 5, total_tokens: 1239 });
    expect(engine.last_prompt_tokens).toBe(1234);
    engine.last_prompt_tokens = -1;
    expect(engine.last_prompt_tokens).toBe(-1);
    expect(await engine.get_status()).toEqual({ last: -1 });
  });

  it("reports native types JSON hides", async () => {
    const engine = await engineWith("def update_model(self, model, context_length, **kwargs):\n    self.context_length = context_length\n    self.threshold_tokens = context_length * 0.5");
    const pending = engine.update_model({ model: "m", context_length: 8000 }) as unknown as Promise<void>;
    await pending;
    expect(engine.threshold_tokens).toBe(4000);
    expect(nativeCallFacts(pending)?.attrTypes).toEqual({ threshold_tokens: "float" });
  });
});

describe("RemoteEngine: what JSON cannot carry", () => {
  it("an answer that is the input list is that very array, mutated as the engine mutated its own", async () => {
    const engine = await engineWith("def compress(self, messages, current_tokens=None, focus_topic=None):\n    messages.pop(1)\n    messages[0]['content'] = 'S'\n    return messages");
    const input = structuredClone(MESSAGES);
    const first = input[0];
    const pending = engine.compress(input);
    const output = await pending;
    expect(output).toBe(input);
    expect(input[0]).toBe(first);
    expect(input.map((m) => m.content)).toEqual(["S", "b", "c"]);
    expect(nativeCallFacts(pending)).toMatchObject({ type: "list", sameAs: "messages", mutated: [{ param: "messages" }] });
  });

  it("in-place edits of select_context's keyword arguments reach the caller's objects", async () => {
    const engine = await engineWith(
      "def select_context(self, request_messages, *, conversation_messages=None, incoming_message=None, budget_tokens=0):\n    conversation_messages.append({'role': 'assistant', 'content': 'routed'})\n    incoming_message['content'] = 'seen'\n    return None",
    );
    const conversation = structuredClone(MESSAGES);
    const incoming = { role: "user", content: "c" };
    expect(await engine.select_context(MESSAGES, { conversation_messages: conversation, incoming_message: incoming })).toBeNull();
    expect(conversation).toHaveLength(5);
    expect(incoming.content).toBe("seen");
  });

  it("select_context's request goes by reference once the bridge holds its messages, and in-place edits still reach the caller", async () => {
    const engine = await engineWith(
      "def select_context(self, request_messages, *, conversation_messages=None, incoming_message=None, budget_tokens=0):\n    if budget_tokens == 1:\n        request_messages[1]['content'] = 'edited'\n    return request_messages[-1:] if budget_tokens == 2 else None",
    );
    const traffic = traffics[traffics.length - 1]!;
    const wire = () => MESSAGES.map((message) => ({ ...message }));
    expect(await engine.select_context(wire(), { budget_tokens: 0 })).toBeNull();
    expect(await engine.select_context(wire(), { budget_tokens: 2 })).toEqual([MESSAGES[3]]);
    const edited = wire();
    expect(await engine.select_context(edited, { budget_tokens: 1 })).toBeNull();
    expect(edited[1]!.content).toBe("edited");
    const sent = traffic.messages
      .filter(({ direction, message }) => direction === "out" && (message as { params?: { hook?: string } }).params?.hook === "select_context")
      .map(({ message }) => (message as { params: { params: { request_messages: unknown } } }).params.params.request_messages);
    expect(sent).toEqual([
      { $refs: [1, 2, 3, 4], define: { 1: MESSAGES[0], 2: MESSAGES[1], 3: MESSAGES[2], 4: MESSAGES[3] } },
      { $refs: [1, 2, 3, 4], define: {} },
      { $refs: [1, 2, 3, 4], define: {} },
    ]);
  });

  it("a coroutine, a tuple and a truthy int are not a boolean or a list", async () => {
    const engine = await engineWith(
      "def should_compress(self, prompt_tokens=None):\n    return 1\nasync def should_compress_preflight(self, messages):\n    return True\ndef select_context(self, request_messages, **kwargs):\n    return tuple(request_messages)",
    );
    const recorder = new TraceRecorder();
    const asked = await recorder.callHook(engine, "should_compress", [], { session: null });
    expect(asked).toEqual({ ok: true, value: 1 });
    const preflight = await recorder.callHook(engine, "should_compress_preflight", [MESSAGES], { session: null });
    expect(preflight.ok && preflight.value).toBeInstanceOf(NativeValue);
    const selected = await recorder.callHook(engine, "select_context", [MESSAGES, {}], { session: null });
    expect(selected.ok && selected.value).toMatchObject({ native: "tuple" });
    const kinds = recorder.events.map((event) => (event.type === "engine-call" ? [event.resultKind, event.native?.type, event.native?.awaitable ?? false] : null));
    expect(kinds).toEqual([
      ["value", "int", false],
      ["value", "coroutine", true],
      ["non-list", "tuple", false],
    ]);
  });

  it("a clone is another RemoteEngine with its own state; a clone that is the engine itself is the same object", async () => {
    const engine = await engineWith("def clone_for_agent(self):\n    clone = type(self)()\n    clone.threshold_percent = self.threshold_percent\n    return clone");
    engine.threshold_percent = 0.5;
    const clone = (await engine.clone_for_agent()) as typeof engine;
    expect(clone).not.toBe(engine);
    expect(clone.threshold_percent).toBe(0.5);
    await clone.update_model({ model: "m", context_length: 1000 });
    expect([clone.context_length, engine.context_length]).toEqual([1000, 0]);
    const selfish = await engineWith("def clone_for_agent(self):\n    return self");
    expect(await selfish.clone_for_agent()).toBe(selfish);
  });

  it("an exception arrives named after the native type, with the state after the failed call", async () => {
    const engine = await engineWith("def compress(self, messages, current_tokens=None, focus_topic=None):\n    self.compression_count += 1\n    raise KeyError('message_uid')");
    const pending = engine.compress(MESSAGES);
    const error = await pending.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RemoteEngineError);
    expect(String(error)).toBe("KeyError: 'message_uid'");
    expect(engine.compression_count).toBe(1);
    expect(nativeCallFacts(pending)?.raised?.traceback).toContain("raise KeyError");
  });
});

describe("RemoteEngine: the call_llm seam", () => {
  it("the engine's summarizer call is answered by the host", async () => {
    const asked: unknown[] = [];
    const engine = await engineWith(
      "def compress(self, messages, current_tokens=None, focus_topic=None):\n    from agent.auxiliary_client import call_llm\n    self.summary = call_llm(task='compression', messages=messages, temperature=0.3).choices[0].message.content\n    return messages[-1:]",
      { llm: (params) => (asked.push(params), { content: `summarized ${params.messages.length}` }) },
    );
    await engine.compress(MESSAGES);
    expect(nativeFacts(engine)?.attrs()["summary"]).toBe("summarized 4");
    expect(asked).toMatchObject([{ task: "compression", temperature: 0.3 }]);
    expect(nativeFacts(engine)?.hostModules()).toContainEqual({ module: "agent.auxiliary_client", outcome: "shim" });
  });
});

describe("RemoteEngine: reproducible engines", () => {
  it("string hashing is fixed, so a set iterates in the same order in every engine process", async () => {
    const extra = "def get_status(self):\n    return {'order': list({'alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta'})}";
    const orders = [];
    for (let i = 0; i < 3; i++) orders.push(await (await engineWith(extra)).get_status());
    expect(orders[1]).toEqual(orders[0]);
    expect(orders[2]).toEqual(orders[0]);
  });
});

describe("RemoteEngine: bounds", () => {
  it("a call that never returns ends the engine's process at the call bound; later calls fail at once", async () => {
    const engine = await engineWith("def compress(self, messages, current_tokens=None, focus_topic=None):\n    while True:\n        pass", { callTimeoutMs: 1500 });
    const started = performance.now();
    const error = await engine.compress(MESSAGES).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ChannelClosed);
    expect(String(error)).toContain("did not return within 1.5 s");
    expect(performance.now() - started).toBeLessThan(5000);
    await expect(engine.get_status() as unknown as Promise<unknown>).rejects.toThrow(/did not return/);
  });

  it("an engine that exits the interpreter in a hook fails that call with the exit code", async () => {
    const engine = await engineWith("def compress(self, messages, current_tokens=None, focus_topic=None):\n    import os\n    os._exit(9)");
    await expect(engine.compress(MESSAGES)).rejects.toThrow(/exited with code 9/);
  });

  it("load failures are EngineLoadErrors that name the cause", async () => {
    const failing = async (files: Record<string, string>, options: PythonEngineOptions = {}) => {
      const name = `broken${++counter}`;
      const factory = new PythonEngineFactory({ directory: plugins.plugin(name, files), selection: name, mode: "directory" }, options);
      factories.push(factory);
      return factory.createFresh().then(
        () => null,
        (error: unknown) => error,
      );
    };
    const raising = await failing({ "__init__.py": "raise RuntimeError('boom at import')\n" });
    expect(raising).toBeInstanceOf(EngineLoadError);
    expect(String(raising)).toMatch(/__init__\.py: failed to import: RuntimeError: boom at import/);
    const exiting = await failing({ "__init__.py": "import os\nos._exit(4)\n" });
    expect(String(exiting)).toMatch(/exited with code 4/);
    const slow = await failing({ "__init__.py": pythonEngine("slow", "def __init__(self):\n    import time\n    time.sleep(10)") }, { loadTimeoutMs: 1000 });
    expect(String(slow)).toMatch(/did not return within 1 s|did not load within 1 s/);
  });
});

