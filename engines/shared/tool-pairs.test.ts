import { describe, expect, it } from "vitest";
import type { Message } from "../../harness/contract/types.ts";
import { isValidSequence } from "../../harness/contract/validate.ts";
import { alignCutToUnit, groupToolUnits, isUnitBoundary, pairToolCalls, repairToolPairs } from "./tool-pairs.ts";

const user = (content: string): Message => ({ role: "user", content });
const text = (content: string): Message => ({ role: "assistant", content });
const calls = (...ids: string[]): Message => ({
  role: "assistant",
  content: null,
  tool_calls: ids.map((id) => ({ id, type: "function", function: { name: "read_file", arguments: "{}" } })),
});
const result = (id: string, content = "ok"): Message => ({ role: "tool", tool_call_id: id, content });

const spans = (messages: Message[]) => groupToolUnits(messages).map((u) => [u.start, u.end]);

describe("pairToolCalls (TCU-3)", () => {
  it("keeps an assistant and its parallel batch in one unit", () => {
    const messages = [user("go"), calls("a", "b", "c"), result("a"), result("b"), result("c"), text("done")];
    expect(spans(messages)).toEqual([[0, 1], [1, 5], [5, 6]]);
    const pairing = pairToolCalls(messages);
    expect(Array.from(pairing.pairedAssistant)).toEqual([-1, -1, 1, 1, 1, -1]);
    expect(pairing.orphanResults).toEqual([]);
    expect(pairing.unansweredCalls).toEqual([]);
  });

  it("pairs a constant id reused every turn with its own turn's call", () => {
    const messages = [
      user("1"), calls("call_0"), result("call_0"), text("a"),
      user("2"), calls("call_0"), result("call_0"), text("b"),
    ];
    const pairing = pairToolCalls(messages);
    expect(pairing.pairedAssistant[2]).toBe(1);
    expect(pairing.pairedAssistant[6]).toBe(5);
    expect(spans(messages)).toEqual([[0, 1], [1, 3], [3, 4], [4, 5], [5, 7], [7, 8]]);
  });

  it("pairs ids repeated across steps of one turn with the nearest call still open", () => {
    const messages = [user("go"), calls("x"), result("x"), calls("x"), result("x"), text("done")];
    const pairing = pairToolCalls(messages);
    expect(pairing.pairedAssistant[2]).toBe(1);
    expect(pairing.pairedAssistant[4]).toBe(3);
    expect(spans(messages)).toEqual([[0, 1], [1, 3], [3, 5], [5, 6]]);
  });

  it("answers duplicate deterministic call_<12hex> ids inside one response from one assistant", () => {
    const id = "call_0123456789ab";
    const messages = [user("go"), calls(id, id, "call_ba9876543210"), result(id), result(id), result("call_ba9876543210")];
    const pairing = pairToolCalls(messages);
    expect(Array.from(pairing.pairedAssistant).slice(2)).toEqual([1, 1, 1]);
    expect(pairing.unansweredCalls).toEqual([]);
    expect(spans(messages)).toEqual([[0, 1], [1, 5]]);
  });

  it("never pairs a result with a call made before a user message", () => {
    const messages = [user("1"), calls("x"), user("2"), result("x")];
    const pairing = pairToolCalls(messages);
    expect(pairing.orphanResults).toEqual([3]);
    expect(pairing.unansweredCalls).toEqual([{ assistant: 1, callIndex: 0 }]);
    expect(spans(messages)).toEqual([[0, 1], [1, 2], [2, 3], [3, 4]]);
  });

  it("merges interleaved spans when a later result answers an earlier assistant", () => {
    const messages = [user("go"), calls("x"), calls("y"), result("y"), result("x"), text("done")];
    const pairing = pairToolCalls(messages);
    expect(pairing.pairedAssistant[3]).toBe(2);
    expect(pairing.pairedAssistant[4]).toBe(1);
    expect(spans(messages)).toEqual([[0, 1], [1, 5], [5, 6]]);
  });

  it("treats a surplus result for an already answered id as an orphan", () => {
    const pairing = pairToolCalls([user("go"), calls("x"), result("x"), result("x")]);
    expect(pairing.pairedAssistant[2]).toBe(1);
    expect(pairing.orphanResults).toEqual([3]);
  });

  it("reports a call with no result", () => {
    const pairing = pairToolCalls([user("go"), calls("a", "b"), result("b")]);
    expect(pairing.unansweredCalls).toEqual([{ assistant: 1, callIndex: 0 }]);
  });
});

describe("dropping whole units keeps a valid sequence", () => {
  it("stays valid whichever units of a repeated-id transcript are removed", () => {
    const id = "call_0123456789ab";
    const messages = [
      { role: "system", content: "sys" } as Message,
      user("1"), calls(id, id), result(id), result(id), text("a"),
      user("2"), calls("call_0"), result("call_0"), calls("call_0"), result("call_0"), text("b"),
      user("3"), calls("p", "q", "r"), result("p"), result("q"), result("r"), text("c"),
    ];
    expect(isValidSequence(messages)).toBe(true);
    const units = groupToolUnits(messages);
    for (let drop = 1; drop < units.length; drop++) {
      const kept = units.filter((_, k) => k !== drop).flatMap((u) => messages.slice(u.start, u.end));
      expect(isValidSequence(kept), `without unit ${drop}`).toBe(true);
    }
  });
});

describe("alignCutToUnit", () => {
  const messages = [user("go"), calls("a", "b"), result("a"), result("b"), text("done"), user("next")];
  const pairing = pairToolCalls(messages);

  it("leaves a cut on a boundary where it is", () => {
    for (const cut of [0, 1, 4, 5, 6]) {
      expect(isUnitBoundary(pairing, cut)).toBe(true);
      expect(alignCutToUnit(pairing, cut, "earlier")).toBe(cut);
    }
  });

  it("moves a cut inside a parallel batch to the batch's start or end", () => {
    for (const cut of [2, 3]) {
      expect(isUnitBoundary(pairing, cut)).toBe(false);
      expect(alignCutToUnit(pairing, cut, "earlier")).toBe(1);
      expect(alignCutToUnit(pairing, cut, "later")).toBe(4);
    }
  });

  it("clamps cuts outside the list", () => {
    expect(alignCutToUnit(pairing, -3, "later")).toBe(0);
    expect(alignCutToUnit(pairing, 99, "earlier")).toBe(6);
  });
});

describe("repairToolPairs", () => {
  it("drops orphan results and strips unanswered calls", () => {
    const messages = [user("go"), calls("a", "b"), result("b"), result("zzz"), calls("c")];
    const repaired = repairToolPairs(messages);
    expect(repaired.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(repaired[1]?.tool_calls?.map((c) => c.id)).toEqual(["b"]);
    expect(repaired[3]?.tool_calls).toBeUndefined();
    expect(repaired[3]?.content).toBe("(tool call removed)");
    const after = pairToolCalls(repaired);
    expect(after.orphanResults).toEqual([]);
    expect(after.unansweredCalls).toEqual([]);
    expect(isValidSequence(messages)).toBe(false);
    expect(isValidSequence(repaired)).toBe(true);
  });

  it("returns the same message objects when nothing needs repair", () => {
    const messages = [user("go"), calls("a"), result("a")];
    const repaired = repairToolPairs(messages);
    expect(repaired).not.toBe(messages);
    repaired.forEach((m, i) => expect(m).toBe(messages[i]));
  });
});
