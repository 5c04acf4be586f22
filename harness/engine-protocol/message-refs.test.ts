import { describe, expect, it } from "vitest";
import { MessageRefEncoder, referable } from "./message-refs.ts";

const system = { role: "system", content: "s" };
const user = { role: "user", content: "a" };
const call = { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "t", arguments: "{}" } }] };

describe("select_context's request by reference (the host's half)", () => {
  it("defines each message once and then names it by number, wherever it moves", () => {
    const encoder = new MessageRefEncoder();
    expect(encoder.encode([system, user, call])).toEqual({ $refs: [1, 2, 3], define: { 1: system, 2: user, 3: call } });
    // Fresh wire copies of the same messages, one more at the end: only that one is sent.
    const next = { role: "user", content: "b" };
    expect(encoder.encode([{ ...system }, { ...user }, structuredClone(call), next])).toEqual({ $refs: [1, 2, 3, 4], define: { 4: next } });
    // A compaction moves messages: they are found by their text.
    expect(encoder.encode([next, system])).toEqual({ $refs: [4, 1], define: {} });
    expect(encoder.size).toBe(4);
  });

  it("a message that is written differently is a new one: a changed value, a nested change, another key order", () => {
    const encoder = new MessageRefEncoder();
    encoder.encode([user, call]);
    const edited = structuredClone(call);
    edited.tool_calls[0]!.function.arguments = '{"x":1}';
    expect(encoder.encode([{ ...user, content: "A" }, edited]).define).toEqual({ 3: { ...user, content: "A" }, 4: edited });
    expect(encoder.encode([{ content: "a", role: "user" }]).define).toEqual({ 5: { content: "a", role: "user" } });
  });

  it("an in-place edit of a message sent before makes it new: what was sent is kept apart from the host's object", () => {
    const encoder = new MessageRefEncoder();
    const message = structuredClone(call);
    encoder.encode([user, message]);
    message.tool_calls[0]!.function.arguments = '{"edited":true}';
    const again = encoder.encode([user, message]);
    expect(again.$refs).toEqual([1, 3]);
    expect(again.define).toEqual({ 3: JSON.parse(JSON.stringify(message)) });
  });

  it("a key JSON leaves out (undefined) does not make a message new", () => {
    const encoder = new MessageRefEncoder();
    encoder.encode([user]);
    expect(encoder.encode([{ ...user, name: undefined }])).toEqual({ $refs: [1], define: {} });
  });

  it("what the engine side keeps is bounded: past it, a reset defines the request's messages anew", () => {
    const encoder = new MessageRefEncoder({ maxMessages: 3 });
    encoder.encode([system, user]);
    const more = [system, user, { role: "user", content: "b" }, { role: "user", content: "c" }];
    const refs = encoder.encode(more);
    expect(refs.reset).toBe(true);
    expect(refs.$refs).toEqual([3, 4, 5, 6]);
    expect(Object.values(refs.define)).toEqual(more);
    expect(encoder.encode(more)).toEqual({ $refs: [3, 4, 5, 6], define: {} });
  });

  it("only lists of JSON objects go by reference", () => {
    expect(referable([system, user])).toBe(true);
    expect(referable([system, "text"])).toBe(false);
    expect(referable([null])).toBe(false);
  });
});
