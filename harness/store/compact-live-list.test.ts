import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Message } from "../contract/types.ts";
import { JSON_CONTENT_SENTINEL } from "./rows.ts";
import type { SessionStore } from "./session-store.ts";
import { assistant, call, openStore, result, tempDir, user } from "./test-support.ts";

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

/** The live list compactInPlace returned is what a restore of the same store gives, key order and all. */
function expectRestoreOf(store: SessionStore, sessionId: string, live: Message[]): void {
  const restored = store.getMessages(sessionId);
  expect(live).toStrictEqual(restored);
  expect(live.map((message) => Object.keys(message))).toEqual(restored.map((message) => Object.keys(message)));
  expect(JSON.stringify(live)).toBe(JSON.stringify(restored));
}

const copies = (messages: Message[]): Message[] => messages.map((message) => structuredClone(message));

describe("compactInPlace and rotate return the new live list without reading the session back", () => {
  it("rows past the watermark, engine-authored uids, tool-call uids, list content and metadata: equal to a fresh restore", () => {
    const store = openStore(tmp.file());
    store.appendMessages("s", [
      { role: "system", content: "be brief" },
      user("read both"),
      assistant(null, [call("c1"), call("c2|item")], { finish_reason: "tool_calls", token_count: 12 }),
      result("c1", "one"),
      result("c2", "two"),
      assistant("done", [], { reasoning: "because", display_kind: "note", display_metadata: { pinned: true, tags: ["a", "b"] } }),
    ]);
    const watermark = store.watermark("s");
    // Arrived while the engine worked: cloned after the compacted rows.
    store.appendMessages("s", [user("and now?"), assistant(null, [call("c3")]), result("c3", "three")]);
    const snapshot = store.getMessages("s").slice(0, 6);
    const output: Message[] = [
      snapshot[0]!,
      { role: "assistant", content: [{ type: "text", text: "summary" }], message_uid: "e".repeat(32), _absorbed_message_uids: [snapshot[1]!.message_uid!, snapshot[2]!.message_uid!] },
      ...copies(snapshot.slice(2, 5)),
      { role: "user", content: "engine note", engine_extra: { kept: false } } as Message,
      assistant(null, [call("c9"), call("c9")], { _tool_call_uids: { c9: ["a".repeat(32), null] } }),
      result("c9", "nine"),
    ];
    const live = store.compactInPlace("s", output, watermark);
    expect(live).toHaveLength(output.length + 3);
    expect(live[1]!.message_uid).toBe("e".repeat(32));
    expect(live.every((message, position) => message !== output[position])).toBe(true);
    expectRestoreOf(store, "s", live);
  });

  it("a result stored without a tool-call uid is paired with the preceding assistant, as the restore pairs it", () => {
    const store = openStore(tmp.file());
    store.appendMessages("s", [user("go"), assistant("ok")]);
    const watermark = store.watermark("s");
    store.appendMessages("s", [result("c5", "late result")]);
    const live = store.compactInPlace("s", [user("summary"), assistant(null, [call("c5")])], watermark);
    expect(live[2]!._tool_call_uid).toBe(live[1]!._tool_call_uids?.["c5"]);
    expectRestoreOf(store, "s", live);
  });

  it("twice in a row, and after a reopen: each returned list is the restore", () => {
    const path = tmp.file();
    let store = openStore(path);
    store.appendMessages("s", [user("a"), assistant("b"), user("c"), assistant("d")]);
    let live = store.compactInPlace("s", [user("summary 1"), ...copies(store.getMessages("s").slice(2))], store.watermark("s"));
    expectRestoreOf(store, "s", live);
    store.close();
    store = openStore(path, { now: () => 1_800_000_000 });
    live = store.compactInPlace("s", [user("summary 2"), ...copies(live.slice(1))], store.watermark("s"));
    expectRestoreOf(store, "s", live);
    store.close();
  });

  it("rotation: the child's handoff copies and the parent's rows past the watermark, equal to a fresh restore of the child", () => {
    const store = openStore(tmp.file());
    store.appendMessages("parent", [user("first"), assistant(null, [call("c1")]), result("c1", "one")]);
    const watermark = store.watermark("parent");
    store.appendMessages("parent", [user("late"), assistant(null, [call("c2")])]);
    store.appendMessages("parent", [result("c2", "two, paired on restore")]);
    const handoff = [user("summary", { message_uid: "d".repeat(32) }), ...copies(store.getMessages("parent").slice(1, 3))];
    const child = store.rotate("parent", "child", handoff, { watermark });
    expect(child).toHaveLength(6);
    expectRestoreOf(store, "child", child);
    expect(store.rotate("child", "grandchild", [], { watermark: 0 })).toStrictEqual(store.getMessages("grandchild"));
    store.close();
  });

  it("values SQLite would not return as bound are read back instead: lone surrogates, -0, NaN, infinities, the list sentinel", () => {
    const store = openStore(tmp.file());
    store.appendMessages("s", [user("a")]);
    const cases: Message[][] = [
      [user("half a pair \ud83d")],
      [assistant("zero", [], { token_count: -0 })],
      [assistant("nan", [], { token_count: Number.NaN })],
      [assistant("inf", [], { token_count: Number.POSITIVE_INFINITY })],
      [user(`${JSON_CONTENT_SENTINEL}[{"type":"text","text":"parsed on restore"}]`)],
      [user("minus zero time", { timestamp: -0 })],
    ];
    for (const output of cases) {
      const live = store.compactInPlace("s", output, store.watermark("s"));
      expectRestoreOf(store, "s", live);
    }
    const restored = store.getMessages("s");
    expect(restored[0]!.content).toBe("minus zero time");
    expect(Object.is(restored[0]!.timestamp, 0)).toBe(true);
    store.close();
  });
});
