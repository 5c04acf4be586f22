import { describe, expect, it } from "vitest";
import type { Message } from "../contract/types.ts";
import { digestValue } from "../trace/canonical-json.ts";
import { isPersistedMessage } from "./persisted-message.ts";
import { requestCopies } from "./request-copies.ts";
import { isWireTwin, wireForDigest } from "./wire-twins.ts";

const persisted = (index: number): Message => ({ role: index % 2 ? "assistant" : "user", content: `message ${index}`, timestamp: 1000 + index, message_uid: `uid-${index}` }) as Message;

describe("wire twins: what the trace digests for a request's wire copies", () => {
  const memo = { cache: new WeakMap<object, string>(), isStable: (value: object) => isPersistedMessage(value) || isWireTwin(value) };
  const withCall: Message = {
    ...persisted(5),
    role: "assistant",
    tool_calls: [{ id: "c1", type: "function", function: { name: "read_file", arguments: '{"path": "a"}' } }],
  } as Message;
  const transcript = [...Array.from({ length: 5 }, (_, index) => persisted(index)), withCall, { role: "user", content: "not stored yet" } as Message];
  type Call = { function: { arguments: string } };

  it("stand in for copies the engine left as they were, and digest exactly what the copies are now", () => {
    for (const edit of [
      (_wire: Message[]) => undefined,
      (wire: Message[]) => void (wire[1]!.content = "edited in place"),
      (wire: Message[]) => void (wire[2] = { ...wire[2]!, name: "added" } as Message),
      (wire: Message[]) => void delete (wire[3] as Partial<Message>).content,
      (wire: Message[]) => void wire.reverse(),
      (wire: Message[]) => void wire.push({ role: "user", content: "appended" } as Message),
      (wire: Message[]) => void ((wire[5]!.tool_calls as Call[])[0]!.function.arguments = '{"path": "edited"}'),
    ]) {
      const wire = requestCopies(transcript);
      edit(wire);
      const digested = wireForDigest(wire, transcript);
      expect(digestValue(digested, memo)).toEqual(digestValue(wire));
      expect(digestValue(digested, memo)).toEqual(digestValue(wire));
    }
  });

  it("the same twin every request for a persisted message; a copy the engine changed, or of a message not stored, is digested itself", () => {
    const first = wireForDigest(requestCopies(transcript), transcript);
    const second = wireForDigest(requestCopies(transcript), transcript);
    expect(first.slice(0, 6).every((twin, index) => twin === second[index] && isWireTwin(twin as object))).toBe(true);
    expect(isWireTwin(first[6] as object)).toBe(false);
    const wire = requestCopies(transcript);
    wire[1]!.content = "edited";
    (wire[5]!.tool_calls as Call[])[0]!.function.arguments = "{}";
    const digested = wireForDigest(wire, transcript);
    expect(digested[1]).toBe(wire[1]);
    expect(digested[5]).toBe(wire[5]);
    expect(digested[0]).toBe(first[0]);
  });
});
