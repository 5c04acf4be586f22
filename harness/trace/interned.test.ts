import { describe, expect, it } from "vitest";
import type { Message } from "../contract/types.ts";
import { canonicalJson } from "./canonical-json.ts";
import type { Trace, TraceEvent } from "./events.ts";
import { encodeTrace, reshipTrace, TraceDecodeError, TraceDecoder } from "./interned.ts";
import { serializeTrace } from "./jsonl.ts";

const message = (role: Message["role"], content: string, extra: Record<string, unknown> = {}): Message => ({ role, content, ...extra }) as Message;

function request(seq: number, session: string, messages: unknown[]): TraceEvent {
  return { seq, session, type: "request", turn: seq, attempt: 0, messages: messages as Message[], tools: [], selection: "none", cacheBreakpoints: [], promptTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 };
}

/** A trace whose requests repeat and grow, with values JSON cannot carry as they are. */
function sampleTrace(): Trace {
  const system = message("system", "be brief");
  const history: unknown[] = [system, message("user", "hello")];
  const trace: Trace = [];
  for (let turn = 0; turn < 5; turn++) {
    history.push(message("assistant", `answer ${turn}`), message("user", `question ${turn}`, { odd: undefined, nan: Number.NaN, big: 10n }));
    trace.push(request(trace.length, turn % 2 === 0 ? "a" : "b", history.map((item) => ({ ...(item as object) }))));
  }
  const cyclic: Record<string, unknown> = { role: "assistant", content: "loop" };
  cyclic["self"] = cyclic;
  trace.push({ seq: trace.length, session: "a", type: "compaction", pass: 0, trigger: "manual", outcome: "refused-invalid", focus_topic: null, input: history as Message[], output: [cyclic as unknown as Message, 7 as unknown as Message], tokensBefore: 9, tokensAfter: null, mode: "in-place", error: null, durationMs: 1 });
  trace.push({ seq: trace.length, session: "a", type: "host-event", event: { type: "rewind", to: 1 } as never });
  trace.push({ seq: trace.length, session: null, type: "run-end", histories: { a: history as Message[], b: [] } });
  return trace;
}

describe("the interned form of a trace", () => {
  it("decodes to exactly what parsing the canonical JSONL gives", () => {
    const trace = sampleTrace();
    const expected = serializeTrace(trace);
    expect(serializeTrace(reshipTrace(trace))).toBe(expected);
    expect(reshipTrace(trace)).toEqual(expected.trimEnd().split("\n").map((line) => JSON.parse(line)));
  });

  it("decodes exactly when a session's requests and the host's lists alternate, and repeated messages differ only subtly", () => {
    class Carrier {
      constructor(readonly role: string, readonly content: string) {}
    }
    const stored = [message("system", "be brief", { message_uid: "u0" }), message("user", "hi", { message_uid: "u1", timestamp: 1 })];
    const sent = [message("system", "be brief"), message("user", "hi")];
    const variants: unknown[][] = [
      sent,
      [sent[0], message("user", "hi", { name: undefined })],
      [sent[0], new Carrier("user", "hi")],
      [sent[0], Object.assign(Object.create(null), { role: "user", content: "hi" })],
      [sent[0], message("user", "hi", { name: "" })],
      [sent[0], message("user", "hi", { extra: { nested: [1, undefined] } })],
      [sent[0], message("user", "hi", { extra: { nested: [1, null] } })],
      // Fewer keys than the message at the same position of the last request.
      sent,
    ];
    const trace: Trace = [];
    for (const list of variants) {
      trace.push(request(trace.length, "a", list));
      trace.push({ seq: trace.length, session: "a", type: "compaction", pass: 0, trigger: "manual", outcome: "committed", focus_topic: null, input: stored, output: [stored[0]!], tokensBefore: 9, tokensAfter: 3, mode: "in-place", error: null, durationMs: 1 });
    }
    expect(serializeTrace(reshipTrace(trace))).toBe(serializeTrace(trace));
  });

  it("writes each distinct message once, however often requests repeat it", () => {
    const trace = sampleTrace();
    const chunks = [...encodeTrace(trace, Number.POSITIVE_INFINITY)];
    const distinct = new Set(trace.flatMap((event) => (event.type === "request" ? event.messages.map((m) => canonicalJson(m)) : []))).size;
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.messages.length).toBeLessThanOrEqual(distinct + 4);
    expect(chunks[0]!.size).toBeLessThan(serializeTrace(trace).length);
  });

  it("splits into chunks near the asked size without splitting an event, and the table follows the chunks", () => {
    const trace = sampleTrace();
    const chunks = [...encodeTrace(trace, 200)];
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.flatMap((chunk) => chunk.events)).toHaveLength(trace.length);
    const decoder = new TraceDecoder();
    for (const chunk of chunks) {
      decoder.addMessages(chunk.messages.map((json) => JSON.parse(json) as unknown));
      for (const event of chunk.events) decoder.addEvent(JSON.parse(event) as Record<string, unknown>);
    }
    expect(serializeTrace(decoder.events)).toBe(serializeTrace(trace));
  });

  it("refuses events out of order and references outside the table", () => {
    const decoder = new TraceDecoder();
    expect(() => decoder.addEvent({ seq: 1, type: "warning", session: null })).toThrow(TraceDecodeError);
    expect(() => decoder.addEvent({ seq: 0, type: "request", session: "a", messages: [0] })).toThrow(/reference 0 is not in the message table/);
    expect(() => new TraceDecoder().addEvent({ seq: 0, type: "request", session: "a", messages: "x" })).toThrow(/not a list of references/);
  });
});
