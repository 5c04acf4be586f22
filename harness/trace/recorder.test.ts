import { describe, expect, it } from "vitest";
import { ContextEngine } from "../contract/context-engine.ts";
import type { Message, Usage } from "../contract/types.ts";
import { canonicalJson, digestValue } from "./canonical-json.ts";
import { parseTrace, serializeTrace, serializeTraceWithoutDurations } from "./jsonl.ts";
import { TraceRecorder } from "./recorder.ts";

class Probe extends ContextEngine {
  readonly name = "probe";
  update_from_response(usage: Usage): void {
    this.last_prompt_tokens = usage.prompt_tokens;
  }
  should_compress(): boolean {
    return false;
  }
  compress(messages: Message[]): Message[] {
    return messages;
  }
}

describe("TraceRecorder.callHook", () => {
  it("records a synchronous call synchronously, with digests, state and detail", () => {
    const recorder = new TraceRecorder();
    const engine = new Probe();
    const outcome = recorder.callHook(engine, "update_from_response", [{ prompt_tokens: 7, completion_tokens: 1, total_tokens: 8 }], {
      session: "s1",
      detail: { why: "test" },
    });
    expect(outcome).toEqual({ ok: true, value: undefined });
    const [event] = recorder.events;
    expect(event).toMatchObject({ seq: 0, type: "engine-call", session: "s1", hook: "update_from_response", resultKind: "undefined", async: false, error: null, detail: { why: "test" } });
    expect(event?.type === "engine-call" && event.stateAfter.last_prompt_tokens).toBe(7);
    expect(event?.type === "engine-call" && event.args[0]).toEqual(digestValue({ completion_tokens: 1, prompt_tokens: 7, total_tokens: 8 }));
  });

  it("awaits only a thenable and classifies list, non-list and error results", async () => {
    const recorder = new TraceRecorder();
    const engine = new Probe();
    engine.select_context = async () => [{ role: "user", content: "x" }];
    const pending = recorder.callHook(engine, "select_context", [[]], { session: null });
    expect(pending).toBeInstanceOf(Promise);
    expect(await pending).toEqual({ ok: true, value: [{ role: "user", content: "x" }] });
    engine.select_context = () => ({ not: "a list" }) as never;
    recorder.callHook(engine, "select_context", [[]], { session: null });
    engine.select_context = () => {
      throw new Error("boom");
    };
    const failed = recorder.callHook(engine, "select_context", [[]], { session: null });
    expect(failed).toMatchObject({ ok: false });
    const kinds = recorder.events.map((e) => (e.type === "engine-call" ? [e.seq, e.resultKind, e.async, e.error] : null));
    expect(kinds).toEqual([
      [0, "list", true, null],
      [1, "non-list", false, null],
      [2, "error", false, "Error: boom"],
    ]);
  });

  it("catches a rejected promise into error", async () => {
    const recorder = new TraceRecorder();
    const engine = new Probe();
    engine.on_turn_complete = () => Promise.reject(new TypeError("late"));
    const outcome = await recorder.callHook(engine, "on_turn_complete", [[], null], { session: "s" });
    expect(outcome.ok).toBe(false);
    expect(recorder.events[0]).toMatchObject({ resultKind: "error", error: "TypeError: late", async: true });
  });
});

describe("canonical JSON and JSONL", () => {
  it("sorts keys at every depth and survives cycles", () => {
    const cyclic: Record<string, unknown> = { b: 1, a: [undefined, Number.NaN] };
    cyclic["self"] = cyclic;
    expect(canonicalJson(cyclic)).toBe('{"a":[null,null],"b":1,"self":"[Circular]"}');
    expect(canonicalJson({ z: { y: 1, x: 2 } })).toBe('{"z":{"x":2,"y":1}}');
  });

  it("round-trips a trace and ignores durations when asked", () => {
    const recorder = new TraceRecorder();
    recorder.record({ type: "warning", session: null, message: "m", rule: "SEL-2" });
    recorder.callHook(new Probe(), "should_compress", [10], { session: "s" });
    const text = serializeTrace(recorder.events);
    expect(text.split("\n").filter(Boolean)).toHaveLength(2);
    expect(parseTrace(text)).toEqual(JSON.parse(JSON.stringify(recorder.events)));
    const other = parseTrace(text).map((e) => ("durationMs" in e ? { ...e, durationMs: 123 } : e));
    expect(serializeTraceWithoutDurations(other)).toBe(serializeTraceWithoutDurations(recorder.events));
    expect(() => parseTrace('{"seq":0}\n')).toThrow(/no "type"/);
  });
});

describe("memoized digests", () => {
  it("give the same digests as plain canonical JSON and cache only stable objects", () => {
    const stable = { role: "user", content: "kept", timestamp: 1 };
    const live = { role: "user", content: "draft" };
    const memo = { cache: new WeakMap<object, string>(), isStable: (value: object) => "timestamp" in value };
    expect(digestValue([stable, live], memo)).toEqual(digestValue([stable, live]));
    live.content = "edited";
    expect(digestValue([stable, live], memo)).toEqual(digestValue([stable, live]));
    expect(memo.cache.has(stable)).toBe(true);
    expect(memo.cache.has(live)).toBe(false);
    const recorder = new TraceRecorder();
    recorder.memoizeDigests((value) => "timestamp" in value);
    recorder.callHook(new Probe(), "should_compress_preflight", [[stable]], { session: "s" });
    expect(recorder.events[0]?.type === "engine-call" && recorder.events[0].args[0]).toEqual(digestValue([stable]));
  });

  it("a list is hashed along the prefixes seen before and still digests exactly its canonical JSON", () => {
    const memo = { cache: new WeakMap<object, string>(), isStable: (value: object) => "timestamp" in value };
    const history = Array.from({ length: 6 }, (_, index) => ({ role: index % 2 ? "assistant" : "user", content: `m${index} é\u{1F600}`, timestamp: index }));
    const live = { role: "user", content: "draft", nested: { b: 1, a: [2, undefined] } };
    const lists: unknown[][] = [
      [],
      history.slice(0, 1),
      history.slice(0, 3),
      history.slice(0, 6),
      [...history.slice(0, 2), live, ...history.slice(2, 4)],
      [...history.slice(0, 4), live],
      [history[3], history[1], history[0]],
      [...history.slice(0, 2), "text", null, undefined, 7],
      [history[0], history[0]],
    ];
    // Twice over, so the second round walks the prefixes the first one left.
    for (const round of [1, 2])
      for (const list of lists) expect({ round, digest: digestValue(list, memo) }).toEqual({ round, digest: digestValue(list) });
    // One array handed out call after call and changed in place in between: the last walk's
    // elements are compared with the array as it is now, not as it was.
    const handedOut: unknown[] = history.slice(0, 2);
    const changes = [
      () => handedOut.push(history[2]),
      () => (handedOut[1] = history[4]),
      () => handedOut.splice(1),
      () => handedOut.push(history[1], live, history[5]),
      () => handedOut.splice(2, 1),
      () => handedOut.unshift(history[3]),
    ];
    for (const change of changes) {
      change();
      expect(digestValue(handedOut, memo), String(change)).toEqual(digestValue(handedOut));
    }
    // An object with one list member (select_context's options), its other members before and after the list.
    const cyclic: Record<string, unknown> = { role: "user", content: "loops" };
    cyclic["self"] = cyclic;
    const objects: unknown[] = [
      { budget_tokens: 64_000, conversation_messages: history.slice(0, 3), incoming_message: history[2] },
      { budget_tokens: 64_000, conversation_messages: history.slice(0, 5), incoming_message: null, skipped: undefined },
      { budget_tokens: 1, conversation_messages: [...history.slice(0, 2), live], incoming_message: live },
      { a: [], z: { nested: [1, 2] } },
      { only: history.slice(0, 6) },
      { list: [cyclic, history[0]], after: "x" },
      { two: [1], lists: [2] },
    ];
    for (const round of [1, 2])
      for (const value of objects) expect({ round, digest: digestValue(value, memo) }).toEqual({ round, digest: digestValue(value) });
    live.content = "edited";
    expect(digestValue([...history.slice(0, 4), live], memo)).toEqual(digestValue([...history.slice(0, 4), live]));
    expect(digestValue({ budget_tokens: 1, conversation_messages: [...history.slice(0, 2), live], incoming_message: live }, memo)).toEqual(digestValue({ budget_tokens: 1, conversation_messages: [...history.slice(0, 2), live], incoming_message: live }));
    expect(digestValue([...history.slice(0, 4), live], memo).size).toBe(canonicalJson([...history.slice(0, 4), live]).length);
  });
});

describe("streamed JSONL", () => {
  it("gives the same bytes as the one-string form, in chunks of whole lines", async () => {
    const { streamTrace, writeTraceFile, readTraceFile } = await import("./jsonl.ts");
    const { mkdtempSync, rmSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { tmpdir } = await import("node:os");
    const recorder = new TraceRecorder();
    for (let index = 0; index < 300; index++) recorder.record({ type: "warning", session: "s", message: "x".repeat(20_000), rule: null });
    const chunks: string[] = [];
    streamTrace(recorder.events, (chunk) => chunks.push(chunk));
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(chunk.endsWith("\n")).toBe(true);
    expect(chunks.join("")).toBe(serializeTrace(recorder.events));
    const dir = mkdtempSync(join(tmpdir(), "ctxbench-trace-"));
    try {
      writeTraceFile(join(dir, "t.jsonl"), recorder.events);
      expect(readTraceFile(join(dir, "t.jsonl"))).toHaveLength(300);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
