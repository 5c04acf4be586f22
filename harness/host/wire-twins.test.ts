import { describe, expect, it } from "vitest";
import type { Message } from "../contract/types.ts";
import { digestValue } from "../trace/canonical-json.ts";
import { isPersistedMessage } from "./persisted-message.ts";
import { requestCopies } from "./request-copies.ts";
import { answerForDigest, isWireTwin, wireForDigest } from "./wire-twins.ts";

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

  it("an answer of the request's own copies digests as the answer is, with twins for the copies left as they were", () => {
    const answers: Array<(wire: Message[]) => unknown> = [
      (wire) => wire.slice(),
      (wire) => [wire[0], wire[5], wire[6]],
      (wire) => [wire[2], wire[2], { role: "user", content: "the engine's own" }],
      (wire) => [...wire].reverse(),
      (wire) => [, wire[1]],
      (wire) => {
        wire[1]!.content = "edited after it was handed back";
        return wire.slice(0, 3);
      },
      (wire) => {
        const answer = wire.slice(0, 3);
        (wire[0] as Record<string, unknown>)["name"] = "added";
        return answer;
      },
      (wire) => {
        (wire[5]!.tool_calls as Call[])[0]!.function.arguments = "{}";
        return wire;
      },
      (wire) => ({ not: "a list", first: wire[0] }),
      (wire) => null,
    ];
    for (const answerOf of answers) {
      const wire = requestCopies(transcript);
      const answer = answerOf(wire);
      const digested = answerForDigest(answer, wire, wireForDigest(wire, transcript));
      expect(digestValue(digested, memo)).toEqual(digestValue(answer));
    }
    const wire = requestCopies(transcript);
    const stood = answerForDigest(wire.slice(1, 3), wire, wireForDigest(wire, transcript)) as unknown[];
    expect(stood.every((element) => isWireTwin(element as object))).toBe(true);
  });

  it("an answer's copy changed after the arguments were digested is digested itself", () => {
    const wire = requestCopies(transcript);
    const digestedArgs = wireForDigest(wire, transcript);
    wire[2]!.content = "changed by a getter between the two digests";
    const digested = answerForDigest([wire[1], wire[2]], wire, digestedArgs) as unknown[];
    expect(isWireTwin(digested[0] as object)).toBe(true);
    expect(digested[1]).toBe(wire[2]);
    expect(digestValue(digested, memo)).toEqual(digestValue([wire[1], wire[2]]));
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
