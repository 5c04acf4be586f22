import { describe, expect, it } from "vitest";
import { estimateTokensExact } from "../contract/tokens-exact.ts";
import type { Message } from "../contract/types.ts";
import { MinimalEngine } from "../testkit/minimal-engine.ts";
import { playScenario } from "./play.ts";
import { sandboxesPerTest, scenario, turn } from "./test-support.ts";

const home = sandboxesPerTest();

/** Keeps one note object and returns it with every selection, its content rewritten in place each time. */
class NoteKeeper extends MinimalEngine {
  readonly note: Message = { role: "system", content: "" };
  calls = 0;
  override select_context(requestMessages: Message[]): Message[] {
    this.calls += 1;
    this.note.content = `note ${this.calls}: ${"the engine rewrote this note in place ".repeat(this.calls * 3)}`;
    return [this.note, ...requestMessages.slice(1)];
  }
}

describe("what a request sent stays what it was", () => {
  it("an engine that rewrites a message it returned earlier: each request's figures and trace are of what it sent then", async () => {
    const engine = new NoteKeeper();
    const { trace } = await playScenario(scenario([turn("one", "a"), turn("two", "b"), turn("three", "c")]), engine, { home: home() });
    const requests = trace.filter((event) => event.type === "request");
    expect(requests.length).toBeGreaterThanOrEqual(3);
    const notes = requests.map((event) => event.messages[0]!.content);
    expect(new Set(notes).size, "each request recorded the note as it was then").toBe(requests.length);
    for (const event of requests) expect(event.promptTokens, String(event.messages[0]!.content).slice(0, 7)).toBe(estimateTokensExact(event.messages));
  });
});
