import { describe, expect, it } from "vitest";
import type { Message } from "../contract/types.ts";
import { canonicalJson, digestValue } from "../trace/canonical-json.ts";
import { buildScenario } from "../../scenarios/catalogue/index.ts";
import { assembleRequest } from "./assemble.ts";
import { playScenario } from "./play.ts";
import { ReferenceViews } from "./reference-views.ts";
import { sandboxesPerTest } from "./test-support.ts";
import { MinimalEngine } from "../testkit/minimal-engine.ts";

const home = sandboxesPerTest();

const persisted = (index: number, extra: Partial<Message> = {}): Message => ({
  role: index % 2 === 0 ? "user" : "assistant",
  content: `message ${index}`,
  message_uid: index.toString(16).padStart(32, "0"),
  timestamp: 1_700_000_000 + index,
  ...extra,
});
const withCall = (index: number): Message =>
  persisted(index, { role: "assistant", content: null, tool_calls: [{ id: `c${index}`, type: "function", function: { name: "read_file", arguments: "{}" } }] });

describe("select_context's reference inputs are private copies made once per persisted message", () => {
  it("hands out copies equal to the history, never the host's objects, nested values included", () => {
    const transcript = [persisted(0), withCall(1), persisted(2)];
    const views = new ReferenceViews().conversation(transcript);
    expect(views).toEqual(transcript);
    views.forEach((view, index) => {
      expect(view).not.toBe(transcript[index]);
      if (view.tool_calls !== undefined) expect(view.tool_calls).not.toBe(transcript[index]!.tool_calls);
    });
  });

  it("reuses the copies of persisted messages at unchanged positions, in a new list every request", () => {
    const views = new ReferenceViews();
    const first = [persisted(0), withCall(1)];
    const a = views.conversation(first);
    const grown = [...first, persisted(2)];
    const b = views.conversation(grown);
    expect(b).not.toBe(a);
    expect(b[0]).toBe(a[0]);
    expect(b[1]).toBe(a[1]);
    expect(b).toEqual(grown);
    // After a compaction the history holds new objects: their copies are new too.
    const compacted = [persisted(7), persisted(8)];
    const c = views.conversation(compacted);
    expect(c).toEqual(compacted);
    expect(c[0]).not.toBe(b[0]);
  });

  it("copies an unpersisted message afresh every time, since the host may still stamp it", () => {
    const views = new ReferenceViews();
    const pending: Message = { role: "user", content: "not flushed yet" };
    const a = views.conversation([persisted(0), pending]);
    pending.message_uid = "f".repeat(32);
    pending.timestamp = 1_700_000_100;
    const b = views.conversation([persisted(0), pending]);
    expect(b[1]).not.toBe(a[1]);
    expect(b[1]).toEqual(pending);
  });

  it("keeps what an engine does to the list in that request, and its edits of a message away from the history (SEL-4)", () => {
    const views = new ReferenceViews();
    const transcript = [persisted(0), withCall(1), persisted(2)];
    const before = canonicalJson(transcript);
    const a = views.conversation(transcript);
    a.push({ role: "user", content: "injected" });
    a.splice(0, 1);
    a[0]!.tool_calls![0]!.function.name = "mutated";
    (a[1] as Message).content = "edited";
    expect(canonicalJson(transcript)).toBe(before);
    const b = views.conversation(transcript);
    expect(b).toHaveLength(3);
    // The edit stays on the engine's own copy, which it is given again (documented in reference-views.ts).
    expect(b[1]!.tool_calls![0]!.function.name).toBe("mutated");
  });

  it("gives the incoming message its own copy, apart from the conversation's", () => {
    const views = new ReferenceViews();
    const transcript = [persisted(0), persisted(2)];
    const conversation = views.conversation(transcript);
    const incoming = views.incoming(transcript[1]!);
    expect(incoming).toEqual(transcript[1]);
    expect(incoming).not.toBe(conversation[1]);
    expect(incoming).not.toBe(transcript[1]);
    expect(views.incoming(transcript[1]!)).toBe(incoming);
  });

  it("assembly with views: in-place edits of the conversation and incoming message never reach history", () => {
    const transcript = [persisted(0), withCall(1), persisted(2)];
    const before = canonicalJson(transcript);
    class Mutating extends MinimalEngine {
      override select_context(_request: Message[], options?: { conversation_messages?: Message[]; incoming_message?: Message | null }): null {
        options!.conversation_messages!.push({ role: "user", content: "injected" });
        options!.conversation_messages![0]!.content = "edited";
        options!.incoming_message!.content = "edited incoming";
        return null;
      }
    }
    const result = assembleRequest(transcript, new Mutating(), { session: "s", incomingIndex: 2, views: new ReferenceViews() });
    expect(result).not.toBeInstanceOf(Promise);
    expect(canonicalJson(transcript)).toBe(before);
  });
});

/** Digests what each select_context call received, the way the trace digests the host's own arguments. */
class WatchingEngine extends MinimalEngine {
  readonly seen: string[] = [];
  override select_context(_request: Message[], options?: object): null {
    this.seen.push(digestValue(options).digest);
    return null;
  }
}

describe("in a real play the reused copies always equal the live history", () => {
  // Scenarios with rewrites, copies, merges, restarts and legacy writes: every path where the host changes a history.
  for (const name of ["content-rewrite", "copies", "merges", "schema-upgrade", "duplicate-uids"]) {
    it(`${name}: every select_context call saw exactly the history the host held`, async () => {
      const engine = new WatchingEngine();
      const { trace } = await playScenario(buildScenario(name, 1), engine, { home: home() });
      // The trace digests the host's history itself (not the copies) as the call's second argument.
      const byHost = trace.flatMap((event) => (event.type === "engine-call" && event.hook === "select_context" ? [event.args[1]!.digest] : []));
      expect(engine.seen.length).toBeGreaterThan(0);
      expect(engine.seen).toEqual(byHost);
    });
  }
});
