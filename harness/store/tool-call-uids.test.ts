import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Message } from "../contract/types.ts";
import { mergeAssistantInto } from "./merges.ts";
import { OlderBuildWriter } from "./older-build-writer.ts";
import { foldToolCallUids, indexToolCallUids, resolveToolCallUid, toolCallUidFromHistory, type ToolCallUidIndex } from "./tool-call-uids.ts";
import { assistant, call, HEX32, openStore, rawDb, result, tempDir, user } from "./test-support.ts";

const U1 = "1".repeat(32);
const U2 = "2".repeat(32);
const U3 = "3".repeat(32);

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

const storedToolColumns = (path: string): Array<{ role: string; tool_calls: string | null; tool_call_uids: string | null; tool_call_uid: string | null }> => {
  const db = rawDb(path);
  const rows = db.prepare("SELECT role, tool_calls, tool_call_uids, tool_call_uid FROM messages WHERE active = 1 ORDER BY id").all();
  db.close();
  return rows as Array<{ role: string; tool_calls: string | null; tool_call_uids: string | null; tool_call_uid: string | null }>;
};
const map = (message: Message | undefined) => message?._tool_call_uids;

describe("tool-call uids at insert and restore (TCU-1, TCU-2)", () => {
  it("mints one uid per call on the assistant and pairs results of the same batch; the provider id and stored tool_calls stay untouched", () => {
    const path = tmp.file();
    const store = openStore(path);
    const turn = [user("read both"), assistant(null, [call("call_a"), call("call_b")]), result("call_a", "A"), result("call_b", "B")];
    store.appendMessages("s", turn);
    const uids = map(turn[1]) as Record<string, string>;
    expect(Object.keys(uids)).toEqual(["call_a", "call_b"]);
    expect(Object.getPrototypeOf(uids)).toBe(Object.prototype); // an ordinary object, whatever it was built as
    expect(uids.call_a).toMatch(HEX32);
    expect(uids.call_a).not.toBe(uids.call_b);
    expect([turn[2]?._tool_call_uid, turn[3]?._tool_call_uid]).toEqual([uids.call_a, uids.call_b]);
    expect(turn[1]?.tool_calls?.map((c) => c.id)).toEqual(["call_a", "call_b"]);
    const stored = storedToolColumns(path);
    expect(stored[1]?.tool_calls).not.toMatch(/uid/);
    expect(stored[1]?.tool_call_uids).toBe(`{"call_a": "${uids.call_a}", "call_b": "${uids.call_b}"}`);
    store.close();
  });

  it("stores a result appended in a later batch without a uid and derives it on restore, without writing it back", () => {
    const path = tmp.file();
    const store = openStore(path);
    const call1 = assistant(null, [call("call_a")]);
    store.appendMessages("s", [user("go"), call1]);
    store.appendMessages("s", [result("call_a", "done")]);
    expect(storedToolColumns(path)[2]?.tool_call_uid).toBeNull();
    expect(store.getMessages("s")[2]?._tool_call_uid).toBe(map(call1)?.call_a);
    expect(storedToolColumns(path)[2]?.tool_call_uid).toBeNull();
    store.close();
  });

  it("shares one uid between calls repeating a provider id inside one response, and every result carries it", () => {
    const store = openStore(tmp.file());
    const reply = assistant(null, [call("call_x"), call("call_x")]);
    const results = [result("call_x", "first"), result("call_x", "second")];
    store.appendMessages("s", [user("q"), reply, ...results]);
    const shared = map(reply)?.call_x;
    expect(shared).toMatch(HEX32);
    expect(results.map((r) => r._tool_call_uid)).toEqual([shared, shared]);
    store.close();
  });

  it("pairs a result with the assistant that named its id, not the nearest assistant, in a batch and on restore", () => {
    const path = tmp.file();
    const store = openStore(path);
    const named = assistant(null, [call("call_a")]);
    const nearest = assistant(null, [call("call_b")]);
    const batch = [user("q"), named, nearest, result("call_a", "A"), result("call_b", "B")];
    store.appendMessages("s", batch);
    expect(batch[3]?._tool_call_uid).toBe(map(named)?.call_a);
    expect(batch[4]?._tool_call_uid).toBe(map(nearest)?.call_b);
    store.appendMessages("s", [result("call_a", "late A")]);
    expect(store.getMessages("s")[5]?._tool_call_uid).toBe(map(named)?.call_a);
    store.close();
  });

  it("pairs a result with the nearest call of its id on restore, fenced by a legacy call and by a user turn", () => {
    const path = tmp.file();
    const store = openStore(path);
    const mapped = assistant(null, [call("call_x")]);
    store.appendMessages("s", [user("one"), mapped]);
    const legacy = OlderBuildWriter.open(path);
    legacy.append("s", [assistant(null, [call("call_x")])]);
    legacy.close();
    store.appendMessages("s", [result("call_x", "after the legacy call")]);
    store.appendMessages("s", [assistant(null, [call("call_y")]), user("two")]);
    store.appendMessages("s", [result("call_y", "across a user turn")]);
    const restored = store.getMessages("s");
    expect(restored[3]?._tool_call_uid).toBeUndefined();
    expect(restored[6]?._tool_call_uid).toBeUndefined();
    store.close();
  });

  it("keeps a mixed-era null slot through insert, rewrite and export/import", () => {
    const path = tmp.file("a.db");
    const store = openStore(path);
    const folded = assistant(null, [call("call_x"), call("call_x")], { _tool_call_uids: { call_x: [null, U1] } });
    store.appendMessages("s", [user("q"), folded]);
    const expected = `{"call_x": [null, "${U1}"]}`;
    expect(storedToolColumns(path)[1]?.tool_call_uids).toBe(expected);
    const rewritten: Message = { ...folded, content: "rewritten" };
    delete rewritten._tool_call_uids;
    store.rewriteMessage("s", rewritten);
    expect(storedToolColumns(path)[1]?.tool_call_uids).toBe(expected);
    const exported = store.exportSession("s");
    store.close();
    const target = openStore(tmp.file("b.db"));
    target.importSessions([exported]);
    expect(storedToolColumns(tmp.file("b.db"))[1]?.tool_call_uids).toBe(expected);
    expect(target.getMessages("s")[1]?._tool_call_uids).toEqual({ call_x: [null, U1] });
    target.close();
  });

  it("drops an id whose slots are all null from the stored map, and mints nothing for it", () => {
    const path = tmp.file();
    const store = openStore(path);
    const reply = assistant(null, [call("call_x"), call("call_x"), call("call_y")], { _tool_call_uids: { call_x: [null, null], call_y: U2 } });
    store.appendMessages("s", [reply]);
    expect(storedToolColumns(path)[0]?.tool_call_uids).toBe(`{"call_y": "${U2}"}`);
    expect(foldToolCallUids(assistant(null, [call("call_x")]), assistant(null, [call("call_x")]))).toBeNull();
    store.close();
  });

  it("a supplied map naming every call is kept as the message's own; one that lacks an id is copied with the mint, the caller's map untouched", () => {
    const store = openStore(tmp.file());
    const complete = { c1: U1, c2: [U2, null] };
    const partial = { c3: U3 };
    const messages = [user("go"), assistant(null, [call("c1"), call("c2"), call("c2")], { _tool_call_uids: complete }), assistant(null, [call("c3"), call("c4")], { _tool_call_uids: partial })];
    store.appendMessages("s", messages);
    expect(map(messages[1])).toBe(complete);
    expect(complete).toEqual({ c1: U1, c2: [U2, null] });
    expect(map(messages[2])).not.toBe(partial);
    expect(partial).toEqual({ c3: U3 });
    expect(map(messages[2])).toEqual({ c3: U3, c4: expect.stringMatching(HEX32) });
    expect(store.getMessages("s").map(map)).toEqual(messages.map(map));
    store.close();
  });

  it("keeps tool-call uids through compaction, rotation and import", () => {
    const store = openStore(tmp.file("a.db"));
    const turn = [user("q"), assistant(null, [call("call_a")]), result("call_a", "r")];
    store.appendMessages("s", turn);
    const expectedMap = map(turn[1]);
    const expectedUid = turn[2]?._tool_call_uid;
    const pick = (messages: Message[]) => [map(messages[1]), messages[2]?._tool_call_uid];
    const compacted = store.compactInPlace("s", store.getMessages("s").map((m) => ({ ...m })), store.watermark("s"));
    expect(pick(compacted)).toEqual([expectedMap, expectedUid]);
    const child = store.rotate("s", "child", store.getMessages("s").map((m) => ({ ...m })));
    expect(pick(child)).toEqual([expectedMap, expectedUid]);
    const exported = store.exportSession("child");
    store.close();
    const target = openStore(tmp.file("b.db"));
    target.importSessions([exported]);
    expect(pick(target.getMessages("child"))).toEqual([expectedMap, expectedUid]);
    target.close();
  });

  it("a row rewrite keeps the stored tool-call uids for calls the message still names", () => {
    const path = tmp.file();
    const store = openStore(path);
    const reply = assistant("thinking", [call("call_a")]);
    store.appendMessages("s", [reply]);
    const stored = map(reply);
    store.rewriteMessage("s", { role: "assistant", content: "sanitised", tool_calls: [call("call_a")], _row_id: reply._row_id });
    expect(store.getMessages("s")[0]?._tool_call_uids).toEqual(stored);
    store.close();
  });

  it("a rewrite that drops a call does not write that call's uid back", () => {
    const path = tmp.file();
    const store = openStore(path);
    const reply = assistant(null, [call("call_a"), call("call_b")]);
    store.appendMessages("s", [reply]);
    const kept = map(reply)?.call_a as string;
    store.rewriteMessage("s", { role: "assistant", content: null, tool_calls: [call("call_a")], _row_id: reply._row_id });
    expect(storedToolColumns(path)[0]?.tool_call_uids).toBe(`{"call_a": "${kept}"}`);
    store.close();
  });

  it("a rewrite keeps a fold's list over the stored single uid, and a fold extending a stored list", () => {
    const path = tmp.file();
    const store = openStore(path);
    const reply = assistant(null, [call("call_x")], { _tool_call_uids: { call_x: U1 } });
    store.appendMessages("s", [reply]);
    reply.tool_calls = [call("call_x"), call("call_x")];
    reply._tool_call_uids = { call_x: [U1, U2] };
    store.rewriteMessage("s", reply);
    expect(storedToolColumns(path)[0]?.tool_call_uids).toBe(`{"call_x": ["${U1}", "${U2}"]}`);
    reply.tool_calls = [call("call_x"), call("call_x"), call("call_x")];
    reply._tool_call_uids = { call_x: [U1, U2, U3] };
    store.rewriteMessage("s", reply);
    expect(store.getMessages("s")[0]?._tool_call_uids).toEqual({ call_x: [U1, U2, U3] });
    store.close();
  });

  it("a chunked import pairs a result with a call in an earlier chunk", () => {
    const store = openStore(tmp.file("a.db"));
    const reply = assistant(null, [call("call_a")]);
    store.appendMessages("s", [user("q"), reply]);
    store.appendMessages("s", [result("call_a", "r")]);
    const exported = store.exportSession("s");
    expect(exported.messages[2]?.tool_call_uid).toBeNull();
    store.close();
    const target = openStore(tmp.file("b.db"));
    target.importSessions([exported], { chunkRows: 2 });
    expect(storedToolColumns(tmp.file("b.db"))[2]?.tool_call_uid).toBe(map(reply)?.call_a);
    target.close();
  });
});

describe("pairing a result flushed after its call (TCU-2)", () => {
  it("pairs through the live list when the call was flushed in an earlier batch", () => {
    const path = tmp.file();
    const store = openStore(path);
    const live = [user("go"), assistant(null, [call("call_a")])];
    store.flush("s", live, 0);
    live.push(result("call_a", "done"));
    store.flush("s", live, 2);
    expect(live[2]?._tool_call_uid).toBe(map(live[1])?.call_a);
    expect(storedToolColumns(path)[2]?.tool_call_uid).toBe(map(live[1])?.call_a);
    store.close();
  });

  it("binds to the nearest assistant that named the id, not the nearest assistant, and never falls back past a legacy one", () => {
    const named = assistant(null, [call("call_a")], { _tool_call_uids: { call_a: U1 } });
    const other = assistant(null, [call("call_b")], { _tool_call_uids: { call_b: U2 } });
    const live = [user("q"), named, other, result("call_a", "r")];
    expect(toolCallUidFromHistory(live, 3)).toBe(U1);
    const older = assistant(null, [call("call_a")], { _tool_call_uids: { call_a: U3 } });
    const legacyNearest = [user("q"), older, assistant(null, [call("call_a")]), result("call_a", "r")];
    expect(toolCallUidFromHistory(legacyNearest, 3)).toBeNull();
    const fenced = [older, user("new turn"), result("call_a", "r")];
    expect(toolCallUidFromHistory(fenced, 2)).toBeNull();
  });

  it("lets the last occurrence of an id inside one row own the results after it; a null last slot clears", () => {
    const index: ToolCallUidIndex = new Map();
    indexToolCallUids(index, assistant(null, [call("call_x"), call("call_x")], { _tool_call_uids: { call_x: [U1, U2] } }));
    expect(resolveToolCallUid(index, "call_x")).toBe(U2);
    indexToolCallUids(index, assistant(null, [call("call_x"), call("call_x")], { _tool_call_uids: { call_x: [U3, null] } }));
    expect(resolveToolCallUid(index, "call_x")).toBeNull();
  });

  it("gives a mixed-era store the same pairing at flush as the restore derives", () => {
    const path = tmp.file();
    const store = openStore(path);
    const live: Message[] = [user("q"), assistant(null, [call("call_a")])];
    store.flush("s", live, 0);
    const legacy = OlderBuildWriter.open(path);
    legacy.append("s", [assistant(null, [call("call_b")])]);
    legacy.close();
    live.push(assistant(null, [call("call_b")]));
    const mapped = assistant(null, [call("call_c")]);
    store.flush("s", [...live.slice(0, 3), mapped], 3);
    live.push(mapped, result("call_a", "a"), result("call_b", "b"), result("call_c", "c"));
    store.flush("s", live, 4);
    const flushed = live.slice(4).map((m) => m._tool_call_uid);
    expect(flushed).toEqual([map(live[1])?.call_a, undefined, map(mapped)?.call_c]);
    const restored = store.getMessages("s").slice(4).map((m) => m._tool_call_uid);
    expect(restored).toEqual(flushed);
    store.close();
  });
});

describe("folding the tool-call uids of two assistant turns (TCU-1)", () => {
  it("unions the uids of different ids and concatenates the calls", () => {
    const prev = assistant("a", [call("call_x")], { _tool_call_uids: { call_x: U1 } });
    mergeAssistantInto(prev, assistant("b", [call("call_y")], { _tool_call_uids: { call_y: U2 } }));
    expect(prev.tool_calls?.map((c) => c.id)).toEqual(["call_x", "call_y"]);
    expect(prev._tool_call_uids).toEqual({ call_x: U1, call_y: U2 });
  });

  it("keeps both occurrences of a reused provider id as a list in call order", () => {
    const prev = assistant(null, [call("call_x")], { _tool_call_uids: { call_x: U1 } });
    mergeAssistantInto(prev, assistant(null, [call("call_x")], { _tool_call_uids: { call_x: U2 } }));
    expect(prev._tool_call_uids).toEqual({ call_x: [U1, U2] });
  });

  it("keeps alignment after a shared-uid row: a shared scalar fills each of its side's slots", () => {
    const prev = assistant(null, [call("call_x"), call("call_x")], { _tool_call_uids: { call_x: U1 } });
    const next = assistant(null, [call("call_x")], { _tool_call_uids: { call_x: U2 } });
    expect(foldToolCallUids(prev, next)).toEqual({ call_x: [U1, U1, U2] });
  });

  it("keeps one slot per occurrence across eras: an unmapped side gives null", () => {
    const legacy = assistant(null, [call("call_x")]);
    const current = assistant(null, [call("call_x")], { _tool_call_uids: { call_x: U1 } });
    expect(foldToolCallUids(legacy, current)).toEqual({ call_x: [null, U1] });
    expect(foldToolCallUids(current, legacy)).toEqual({ call_x: [U1, null] });
  });

  it("never lets a stale key that names no call override the real occurrence", () => {
    const prev = assistant(null, [call("call_x")], { _tool_call_uids: { call_x: U1 } });
    const next = assistant(null, [call("call_y")], { _tool_call_uids: { call_x: U3, call_y: U2 } });
    expect(foldToolCallUids(prev, next)).toEqual({ call_x: U1, call_y: U2 });
  });

  it("leaves no map when the fold maps nothing", () => {
    const prev = assistant(null, [call("call_x")], { _tool_call_uids: {} });
    mergeAssistantInto(prev, assistant(null, [call("call_y")]));
    expect(prev).not.toHaveProperty("_tool_call_uids");
  });

  it.each([["junk"], [["junk"]], [42]])("ignores a malformed uid map (%j) on either side", (junk) => {
    const good = assistant(null, [call("call_x")], { _tool_call_uids: { call_x: U1 } });
    const bad = assistant(null, [call("call_x")], { _tool_call_uids: junk as never });
    expect(foldToolCallUids(good, bad)).toEqual({ call_x: [U1, null] });
    expect(foldToolCallUids(bad, good)).toEqual({ call_x: [null, U1] });
  });

  it("persists a merged assistant's unioned map through a rewrite and returns it on restore, reused ids included", () => {
    const path = tmp.file();
    const store = openStore(path);
    const live = [user("q"), assistant(null, [call("call_x")]), assistant(null, [call("call_x"), call("call_y")])];
    store.appendMessages("s", live);
    const [, first, second] = live as [Message, Message, Message];
    const expected = { call_x: [map(first)?.call_x, map(second)?.call_x], call_y: map(second)?.call_y };
    mergeAssistantInto(first, second);
    expect(first._tool_call_uids).toEqual(expected);
    store.rewriteMessage("s", first);
    store.replaceMessages("s", [live[0] as Message, first], { archiveDropped: true });
    store.close();
    const reopened = openStore(path);
    const restored = reopened.getMessages("s");
    expect(restored).toHaveLength(2);
    expect(restored[1]?._tool_call_uids).toEqual(expected);
    reopened.close();
  });
});

describe("provider ids that name Object.prototype's members", () => {
  const IDS = ["constructor", "toString", "__proto__", "hasOwnProperty"];

  it("each get their own uid, kept by the restore, a rewrite and a merge like any other id", () => {
    const path = tmp.file();
    const store = openStore(path);
    const turn = [user("go"), assistant(null, IDS.map((id) => call(id))), ...IDS.map((id) => result(id, `out ${id}`))];
    store.appendMessages("s", turn);
    const minted = map(turn[1]) as Record<string, string>;
    expect(Object.keys(minted)).toEqual(IDS);
    for (const id of IDS) expect(Object.hasOwn(minted, id) && HEX32.test(minted[id]!)).toBe(true);
    expect(Object.getPrototypeOf(minted)).toBe(Object.prototype);
    expect(turn.slice(2).map((m) => m._tool_call_uid)).toEqual(IDS.map((id) => minted[id]));

    const entries = (value: unknown) => Object.entries(value as object).sort(([a], [b]) => (a < b ? -1 : 1));
    const restored = store.getMessages("s", { includeRowIds: true });
    expect(entries(map(restored[1]))).toEqual(entries(minted));
    expect(Object.getPrototypeOf(map(restored[1]))).toBe(Object.prototype);
    // A supplied map is honoured for these ids too: copied rows keep them.
    store.appendMessages("copy", restored.map(({ _row_id: _ignored, message_uid: _uid, ...m }) => m));
    expect(entries(map(store.getMessages("copy")[1]))).toEqual(entries(minted));
    const rewritten = { ...restored[1]!, content: "edited" };
    delete rewritten._tool_call_uids;
    store.rewriteMessage("s", rewritten);
    expect(entries(map(store.getMessages("s")[1]))).toEqual(entries(minted));
    const folded = foldToolCallUids(restored[1]!, { role: "assistant", content: null, tool_calls: [call("__proto__")], _tool_call_uids: { ["__proto__"]: U1 } as never });
    expect(Object.getPrototypeOf(folded)).toBe(Object.prototype);
    expect(entries(folded)).toEqual(entries(Object.fromEntries(IDS.map((id) => [id, id === "__proto__" ? [minted[id], U1] : minted[id]]))));
    store.close();
  });
});
