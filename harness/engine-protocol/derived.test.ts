import { describe, expect, it } from "vitest";
import { stripAll } from "../contract/persistence-fields.ts";
import type { Message } from "../contract/types.ts";
import { deriveFromRequest, isDerived, underive } from "./derived.ts";

const transcript: Message[] = [
  { role: "system", content: "s", message_uid: "a".repeat(32) },
  { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "read", arguments: "{}" } }], message_uid: "b".repeat(32), _tool_call_uids: { c1: "d".repeat(32) } },
  { role: "tool", tool_call_id: "c1", content: "file", message_uid: "e".repeat(32) },
];

// The host's copies are deep copies of JSON data (host/clone.ts); structuredClone makes the same
// without importing the host, a layer above this one.
const cloneMessages = (messages: readonly Message[]): Message[] => structuredClone([...messages]);

describe("conversation_messages as differences from request_messages", () => {
  it("sends only what differs from the request (identity fields, the nested lists the host copied) and rebuilds equal, separate objects", () => {
    const request = stripAll(transcript);
    const conversation = cloneMessages(transcript);
    const derived = deriveFromRequest(request, conversation)!;
    expect(isDerived(derived)).toBe(true);
    expect(derived.extra[0]).toEqual({ message_uid: "a".repeat(32) });
    // tool_calls is the host's copy of the request's list, written as the same JSON: not sent again.
    expect(Object.keys(derived.extra[1]!).sort()).toEqual(["_tool_call_uids", "message_uid"]);
    const sentRequest = JSON.parse(JSON.stringify(request)) as Array<Record<string, unknown>>;
    const rebuilt = underive(sentRequest, JSON.parse(JSON.stringify(derived)));
    expect(rebuilt).toEqual(JSON.parse(JSON.stringify(conversation)));
    expect(rebuilt[1]!["tool_calls"], "the rebuilt message's nested list is its own").not.toBe(sentRequest[1]!["tool_calls"]);
    expect(derived.extra.some((own) => "role" in own || "content" in own), "shared text is not sent twice").toBe(false);
  });

  it("sends a nested value the conversation holds differently", () => {
    const request = stripAll(transcript);
    const conversation = cloneMessages(transcript);
    (conversation[1]!.tool_calls![0]!.function as { arguments: string }).arguments = '{"x":1}';
    const derived = deriveFromRequest(request, conversation)!;
    expect(derived.extra[1]!["tool_calls"]).toEqual(conversation[1]!.tool_calls);
    expect(underive(JSON.parse(JSON.stringify(request)), JSON.parse(JSON.stringify(derived)))).toEqual(JSON.parse(JSON.stringify(conversation)));
  });

  it("sends the conversation in full when it is not the request's copy", () => {
    const request = stripAll(transcript);
    expect(deriveFromRequest(request, cloneMessages(transcript).slice(1))).toBeNull();
    expect(deriveFromRequest(request, [{ role: "user" }, ...cloneMessages(transcript).slice(1)])).toBeNull();
  });
});
