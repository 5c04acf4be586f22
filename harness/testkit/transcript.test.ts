import { describe, expect, it } from "vitest";
import { validateSequence } from "../contract/validate.ts";
import { UID_PATTERN } from "../util/uid.ts";
import { MinimalEngine } from "./minimal-engine.ts";
import { CONSTANT_TOOL_CALL_ID, deterministicCallId, TOOL_CALL_ID_STYLES } from "./tool-call-ids.ts";
import { buildTranscript, sampleTranscript } from "./transcript.ts";

const ids = (messages: ReturnType<typeof buildTranscript>) => messages.flatMap((m) => m.tool_calls ?? []).map((call) => call.id);

describe("the test kit's transcript builder", () => {
  it("gives the same messages for the same seed and shape, and sequences a provider accepts in every id style", () => {
    for (const style of TOOL_CALL_ID_STYLES) {
      const shape = { turns: 12, words: { min: 3, max: 30 }, toolEvery: 2, batch: { min: 1, max: 3 }, ids: style, resultChars: { min: 20, max: 5000 } } as const;
      expect(buildTranscript(4, shape)).toEqual(buildTranscript(4, shape));
      expect(buildTranscript(4, shape)).not.toEqual(buildTranscript(5, shape));
      // Repeated ids are the point of some styles (warnings); nothing a provider would refuse.
      expect(validateSequence(buildTranscript(4, shape)).filter((finding) => finding.severity !== "warning"), style).toEqual([]);
    }
  });

  it("repeats provider ids as each style says", () => {
    const shape = { turns: 8, words: 5, toolEvery: 1, batch: 2 };
    const unique = ids(buildTranscript(1, { ...shape, ids: "unique" }));
    expect(new Set(unique).size).toBe(unique.length);
    expect(new Set(ids(buildTranscript(1, { ...shape, ids: "constant" })))).toEqual(new Set([CONSTANT_TOOL_CALL_ID]));
    expect(new Set(ids(buildTranscript(1, { ...shape, ids: "per-response" })))).toEqual(new Set(["call_0", "call_1"]));
    const deterministic = buildTranscript(1, { ...shape, ids: "deterministic" }).flatMap((m) => m.tool_calls ?? []);
    for (const [index, call] of deterministic.entries()) expect(call.id).toBe(deterministicCallId(call.function.name, call.function.arguments, index % 2));
  });

  it("stops after whole turns once it holds the messages asked for, plants facts, and stamps uids as the store does", () => {
    const messages = sampleTranscript({ messages: 120, seed: 3 });
    expect(messages.length).toBeGreaterThanOrEqual(120);
    expect(messages.at(-1)!.role).toBe("assistant");
    expect(messages.some((m) => String(m.content).includes("the database setting for turn 1 is DAT-1001"))).toBe(true);
    for (const message of messages) expect(message.message_uid).toMatch(UID_PATTERN);
    const assistant = messages.find((m) => (m.tool_calls?.length ?? 0) > 0)!;
    const uids = assistant._tool_call_uids as Record<string, string>;
    for (const call of assistant.tool_calls!) {
      const result = messages.find((m) => m.role === "tool" && m.tool_call_id === call.id)!;
      expect(result._tool_call_uid).toBe(uids[call.id]);
    }
    expect(sampleTranscript({ messages: 40, seed: 3, withUids: false }).some((m) => "message_uid" in m)).toBe(false);
    expect(messages.some((m) => m.role === "tool" && String(m.content).startsWith("Error:"))).toBe(true);
  });
});

describe("the test kit's minimal engine", () => {
  it("keeps the system prompt, a summary line and its tail, never opening on a tool result; or hands its input back", () => {
    const input = buildTranscript(2, { turns: 6, words: 4, toolEvery: 1, batch: 2 });
    const engine = new MinimalEngine({ keep: 3 });
    const output = engine.compress(input) as typeof input;
    expect(output[0]).toBe(input[0]);
    expect(output[1]).toEqual({ role: "user", content: "[summary of earlier turns]" });
    expect(output[2]!.role).not.toBe("tool");
    expect(engine.compression_count).toBe(1);
    const still = new MinimalEngine({ compacts: false });
    expect(still.compress(input)).toBe(input);
    expect(still.should_compress(1e9)).toBe(false);
    expect(still.compression_count).toBe(0);
  });
});
