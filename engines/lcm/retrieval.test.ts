import { beforeAll, describe, expect, it } from "vitest";
import { stripAll } from "../../harness/contract/persistence-fields.ts";
import type { Message } from "../../harness/contract/types.ts";
import { validateSequence } from "../../harness/contract/validate.ts";
import { LcmEngine } from "./index.ts";
import { RETRIEVAL_MARKER } from "./retrieval.ts";
import { completeTurns, filler, fillerTurns, transcript, type TurnSpec } from "./test-transcripts.ts";

const FACT = "the deploy key for orion is KX-48213";
const TAIL_FACT = "the staging password for vega is VX-99120";
let engine: LcmEngine;
let compacted: Message[];

/** The request the host would build for the next turn: wire copies of history + the new question. */
function request(question: string): { request: Message[]; conversation: Message[]; incoming: Message } {
  const incoming: Message = { role: "user", content: question, message_uid: "f".repeat(32) };
  const conversation = [...structuredClone(compacted), incoming];
  return { request: stripAll(structuredClone(conversation)), conversation, incoming };
}

function select(question: string) {
  const { request: wire, conversation, incoming } = request(question);
  const frozen = { wire: structuredClone(wire), conversation: structuredClone(conversation), incoming: structuredClone(incoming) };
  const selection = engine.select_context(wire, { conversation_messages: conversation, incoming_message: incoming, budget_tokens: 4_000 });
  // SEL-6: the references are left exactly as they were (and so is the live request).
  expect({ wire, conversation, incoming }).toEqual(frozen);
  return { selection, wire };
}

beforeAll(async () => {
  engine = new LcmEngine();
  engine.update_model({ model: "m", context_length: 4_000 });
  engine.on_session_start("s1", {});
  const turns = fillerTurns(24, 0, { turn: 2, fact: FACT });
  turns[23] = { ...(turns[23] as TurnSpec), user: `For the record: ${TAIL_FACT}.` };
  const history = transcript("s1", turns);
  completeTurns(engine, "s1", history);
  compacted = await engine.compress(structuredClone(history));
  engine.on_session_start("s1", { boundary_reason: "compression", old_session_id: "s1" });
});

describe("lcm select_context retrieval", () => {
  it("adds the raw excerpt when the question asks about something only in compacted history", () => {
    const { selection, wire } = select("What was the deploy key for orion again?");
    expect(selection).not.toBeNull();
    const list = selection as Message[];
    // Everything before the question is the request unchanged; the question gains the excerpts.
    expect(list.length).toBe(wire.length);
    expect(list.slice(0, -1)).toEqual(wire.slice(0, -1));
    const question = String(list.at(-1)?.content);
    expect(question.startsWith("What was the deploy key for orion again?")).toBe(true);
    expect(question.slice(question.indexOf(RETRIEVAL_MARKER))).toContain("KX-48213");
    // A valid request on its own (SEL-7, SEL-9): pairs intact, no two user messages in a row.
    expect(list.every((m, i) => i === 0 || !(m.role === "user" && list[i - 1]?.role === "user"))).toBe(true);
    expect(validateSequence(list).filter((f) => f.severity === "error")).toEqual([]);
  });

  it("returns an equal selection when called again with nothing changed (SEL-8)", () => {
    const first = select("What was the deploy key for orion again?").selection;
    const second = select("What was the deploy key for orion again?").selection;
    expect(second).toEqual(first);
  });

  it("returns null when nothing compacted matches the question", () => {
    expect(select("Shall we paint the zeppelin turquoise?").selection).toBeNull();
  });

  it("returns null when the question shares only common words with compacted history", () => {
    // Every filler message holds these words: matching them is noise, not recall.
    expect(select("Tell me about the river, the copper lamp and the meadow").selection).toBeNull();
  });

  it("returns null when the question is about the fresh tail, still in the active context", () => {
    expect(compacted.some((m) => String(m.content).includes(TAIL_FACT))).toBe(true);
    expect(select("What is the staging password for vega?").selection).toBeNull();
  });

  it("returns null before anything was compacted", () => {
    const fresh = new LcmEngine();
    const wire = stripAll(transcript("s9", fillerTurns(3)));
    expect(fresh.select_context(wire, { conversation_messages: wire, incoming_message: wire.at(-2) ?? null })).toBeNull();
  });
});

describe("lcm select_context retrieval: which compacted messages become excerpts", () => {
  const REPEATED = "the vault code for lyra is LQ-30577";
  let repeating: LcmEngine;
  let history: Message[];
  let kept: Message[];

  beforeAll(async () => {
    repeating = new LcmEngine();
    repeating.update_model({ model: "m", context_length: 4_000 });
    repeating.on_session_start("s2", {});
    const turns = fillerTurns(24, 3);
    // The same words said twice, in two messages with their own uids.
    const planted = `For the record: ${REPEATED}. ${filler(77, 30)}`;
    turns[2] = { ...(turns[2] as TurnSpec), user: planted };
    turns[5] = { ...(turns[5] as TurnSpec), user: planted };
    history = transcript("s2", turns);
    completeTurns(repeating, "s2", history);
    kept = await repeating.compress(structuredClone(history));
    repeating.on_session_start("s2", { boundary_reason: "compression", old_session_id: "s2" });
  });

  function excerpts(question: string): string[] {
    const incoming: Message = { role: "user", content: question, message_uid: "e".repeat(32) };
    const conversation = [...structuredClone(kept), incoming];
    const selection = repeating.select_context(stripAll(structuredClone(conversation)), { conversation_messages: conversation, incoming_message: incoming, budget_tokens: 4_000 });
    if (selection === null) return [];
    const question_ = String(selection.at(-1)?.content);
    return question_.slice(question_.indexOf(RETRIEVAL_MARKER)).split("\n").filter((line) => line.startsWith("- "));
  }

  it("quotes text that two compacted messages share once", () => {
    // The store holds the two messages, each current under its own uid.
    const grep = JSON.parse(repeating.handle_tool_call("lcm_grep", { query: "LQ-30577", scope: "messages" }, { session_id: "s2" })) as { messages: Array<{ message_uid: string; current: boolean }> };
    expect(new Set(grep.messages.filter((hit) => hit.current).map((hit) => hit.message_uid)).size).toBe(2);
    const lines = excerpts("What was the vault code for lyra?");
    expect(lines.filter((line) => line.includes("LQ-30577"))).toHaveLength(1);
  });

  it("quotes only messages holding one of the question's rare words, not those sharing its common ones", () => {
    // The filler words are in every filler message, lyra only in the two planted ones.
    const lines = excerpts("What was the vault code for lyra, by the river lamp and the copper meadow?");
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((line) => line.includes("lyra"))).toBe(true);
  });

  it("answers the same for the same request whether or not the store remembered its reads", () => {
    const question = "What was the vault code for lyra, by the river lamp?";
    const remembered = [excerpts(question), excerpts(question)];
    expect(remembered[0]!.length).toBeGreaterThan(0);
    // A write (a message the question does not ask about) empties what the store remembers.
    completeTurns(repeating, "s2", [...history, { role: "user", content: "Shall we paint the zeppelin turquoise?", message_uid: "d".repeat(32) }]);
    expect(excerpts(question)).toEqual(remembered[0]);
    expect(remembered[1]).toEqual(remembered[0]);
  });
});
