import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Message } from "../contract/types.ts";
import { assistant, call, HEX32, openStore, rawDb, result, tempDir, uidOf, user } from "./test-support.ts";
import type { MessageRow } from "./rows.ts";

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

const identity = (row: MessageRow) => [row.message_uid, row.absorbed_message_uids, row.tool_call_uids, row.tool_call_uid];
const strip = (messages: Message[]) => messages.map(({ _row_id: _ignored, ...rest }) => rest as Message);

describe("copy paths keep the uid (UID-3)", () => {
  it("in-place compaction: a new generation keeps uids, the tail past the watermark is cloned byte-exact, originals are archived with theirs", () => {
    const store = openStore(tmp.file());
    const early = [user("plan the trip"), assistant("sure"), user("book it")];
    store.appendMessages("s", early);
    const watermark = store.watermark("s");
    const snapshot = store.getMessages("s");
    const tail = [assistant(null, [call("call_1")]), result("call_1", "booked", { _absorbed_message_uids: ["f".repeat(32)] })];
    store.appendMessages("s", tail);
    const tailRowsBefore = store.getRows("s").slice(3);

    const summary: Message = { role: "user", content: "[summary] trip planned" };
    const kept = { ...snapshot[2] } as Message;
    const live = store.compactInPlace("s", [summary, kept], watermark);

    expect(uidOf(summary)).toMatch(HEX32);
    expect(live.map((m) => m.message_uid)).toEqual([summary.message_uid, early[2]?.message_uid, tail[0]?.message_uid, tail[1]?.message_uid]);
    const active = store.getRows("s");
    expect(active.slice(2).map(identity)).toEqual(tailRowsBefore.map(identity));
    expect(active.slice(2).map((row) => row.id)).not.toEqual(tailRowsBefore.map((row) => row.id));
    const archived = store.getRows("s", { includeInactive: true }).filter((row) => row.active === 0);
    expect(archived.map((row) => [row.compacted, row.message_uid])).toEqual([...early, ...tail].map((m) => [1, m.message_uid]));
    store.close();
  });

  it("rotation: handoff copies keep their uids and the parent's foreign tail is cloned into the child with its identity", () => {
    const store = openStore(tmp.file());
    const parent = [user("first"), assistant("second")];
    store.appendMessages("parent", parent);
    const watermark = store.watermark("parent");
    const late = [user("arrived during compaction"), assistant(null, [call("c9")]), result("c9", "ok")];
    store.appendMessages("parent", late);
    const handoff = store.getMessages("parent").slice(0, 2).map((m) => ({ ...m }));
    const child = store.rotate("parent", "child", handoff, { watermark });
    expect(child.map((m) => m.message_uid)).toEqual([...parent, ...late].map((m) => m.message_uid));
    expect(child[3]?._tool_call_uids).toEqual(late[1]?._tool_call_uids);
    expect(child[4]?._tool_call_uid).toBe(late[2]?._tool_call_uid);
    expect(store.getSession("child")).toMatchObject({ parent_session_id: "parent" });
    expect(store.getSession("parent")).toMatchObject({ end_reason: "compression" });
    store.close();
  });

  it("replace_messages (delete and reissue): reissued rows keep their objects' uids and new objects are minted", () => {
    const store = openStore(tmp.file());
    store.appendMessages("s", [user("a"), assistant("b")]);
    const restored = store.getMessages("s");
    const added = user("c");
    store.replaceMessages("s", [...restored, added]);
    const rows = store.getRows("s", { includeInactive: true });
    expect(rows.map((row) => row.message_uid)).toEqual([restored[0]?.message_uid, restored[1]?.message_uid, added.message_uid]);
    expect(uidOf(added)).toMatch(HEX32);
    store.close();
  });

  it("replace_messages (archive dropped): the matching prefix keeps its rows and lends its uid; only the divergent suffix is archived and reinserted", () => {
    const store = openStore(tmp.file());
    const original = [user("a"), assistant("b"), user("c")];
    store.appendMessages("s", original);
    const edited: Message[] = [user("a"), assistant("b"), user("c, edited")];
    store.replaceMessages("s", edited, { archiveDropped: true });
    expect(edited[0]).toMatchObject({ _row_id: original[0]?._row_id, message_uid: original[0]?.message_uid });
    expect(edited[1]).toMatchObject({ _row_id: original[1]?._row_id, message_uid: original[1]?.message_uid });
    expect(uidOf(edited[2])).not.toBe(uidOf(original[2]));
    const all = store.getRows("s", { includeInactive: true });
    expect(all.map((row) => [row.content, row.active])).toEqual([["a", 1], ["b", 1], ["c", 0], ["c, edited", 1]]);
    store.close();
  });

  it("a row-addressed rewrite updates in place and keeps the uid", () => {
    const store = openStore(tmp.file());
    const reply = assistant("draft");
    store.appendMessages("s", [user("q"), reply]);
    const uid = uidOf(reply);
    reply.content = "final";
    store.rewriteMessage("s", reply);
    const rows = store.getRows("s", { includeInactive: true });
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatchObject({ id: reply._row_id, content: "final", message_uid: uid });
    store.close();
  });

  it("a rewrite adopts the stored uid onto an object that lost it", () => {
    const store = openStore(tmp.file());
    const reply = assistant("draft");
    store.appendMessages("s", [reply]);
    const uid = uidOf(reply);
    const rewritten: Message = { role: "assistant", content: "sanitised", _row_id: reply._row_id };
    store.rewriteMessage("s", rewritten);
    expect(rewritten.message_uid).toBe(uid);
    expect(store.getMessages("s")[0]).toMatchObject({ content: "sanitised", message_uid: uid });
    store.close();
  });

  it("export then import into another store keeps every identity column, archived rows included", () => {
    const source = openStore(tmp.file("a.db"));
    source.appendMessages("s", [user("a"), assistant(null, [call("c1"), call("c1")]), result("c1", "r")]);
    source.compactInPlace("s", [{ role: "user", content: "summary" }], source.watermark("s") - 1);
    const exported = JSON.parse(JSON.stringify(source.exportSession("s"))) as ReturnType<typeof source.exportSession>;
    const sourceRows = source.getRows("s", { includeInactive: true });
    source.close();

    const target = openStore(tmp.file("b.db"));
    expect(target.importSessions([exported])).toEqual(["s"]);
    const targetRows = target.getRows("s", { includeInactive: true });
    const view = (row: MessageRow) => [row.role, row.content, row.active, row.compacted, ...identity(row)];
    expect(targetRows.map(view)).toEqual(sourceRows.map(view));
    expect(() => target.importSessions([exported])).toThrow(/already exists/);
    target.close();
  });

  it("rewind reissues the new head as a replacement row under its uid and reports that uid", () => {
    const store = openStore(tmp.file());
    const turnOne = [user("one"), assistant("reply one")];
    store.appendMessages("s", [...turnOne, user("two"), assistant("reply two")]);
    const outcome = store.rewind("s", { turns: 1 });
    expect(outcome.replacementMessageUid).toBe(turnOne[1]?.message_uid);
    expect(outcome.archivedRows).toBe(2);
    expect(outcome.prefix.map((m) => m.message_uid)).toEqual(turnOne.map((m) => m.message_uid));
    expect(outcome.prefix[1]?._row_id).toBe(outcome.replacementRowId);
    expect(outcome.replacementRowId).not.toBe(turnOne[1]?._row_id);
    store.close();
  });

  it("a live undo installs the replacement row id and uid on the warm history's last message", () => {
    const store = openStore(tmp.file());
    const live = [user("one"), assistant("reply one"), user("two"), assistant("reply two")];
    store.appendMessages("s", live);
    const head = live[1] as Message;
    delete head.message_uid;
    const outcome = store.rewind("s", { turns: 1, warmHistory: live });
    expect(outcome.prefix).toHaveLength(2);
    expect(outcome.prefix[1]).toBe(head);
    expect(head).toMatchObject({ _row_id: outcome.replacementRowId, message_uid: outcome.replacementMessageUid });
    expect(store.getMessages("s").map((m) => m.message_uid)).toEqual([live[0]?.message_uid, head.message_uid]);
    expect(() => store.rewind("s", { turns: 5 })).toThrow(/cannot rewind 5/);
    store.close();
  });

  it("a foreign import mints uids for messages without one and keeps supplied ones", () => {
    const store = openStore(tmp.file());
    const foreign = [user("hi", { message_uid: "a".repeat(32) }), assistant("hello")];
    store.importForeignHistory("imported", foreign, { source: "other-tool" });
    const restored = store.getMessages("imported");
    expect(restored[0]?.message_uid).toBe("a".repeat(32));
    expect(uidOf(restored[1])).toMatch(HEX32);
    expect(restored[1]?.message_uid).toBe(foreign[1]?.message_uid);
    store.close();
  });

  it("a branch writes the live uids, minting onto live objects that have none so object and row agree", () => {
    const store = openStore(tmp.file());
    const persisted = [user("a"), assistant(null, [call("c1")]), result("c1", "r")];
    store.appendMessages("parent", persisted);
    const unflushed = user("not yet persisted");
    const history = [...persisted, unflushed];
    const child = store.branch("parent", "child", history);
    expect(uidOf(unflushed)).toMatch(HEX32);
    expect(child.map((m) => m.message_uid)).toEqual(history.map((m) => m.message_uid));
    expect(child[1]?._tool_call_uids).toEqual(persisted[1]?._tool_call_uids);
    expect(child[2]?._tool_call_uid).toBe(persisted[2]?._tool_call_uid);
    store.close();
  });

  it("allows two active rows to share a uid: an edited copy re-appended, then a content rewrite under the uid hits the latest", () => {
    const store = openStore(tmp.file());
    const original = user("version one");
    store.appendMessages("s", [original]);
    const uid = uidOf(original);
    const copy = store.appendEditedCopy("s", uid, "version two");
    expect(copy.message_uid).toBe(uid);
    const rowId = store.rewriteContent("s", uid, "version three");
    expect(rowId).toBe(copy._row_id);
    expect(strip(store.getMessages("s")).map((m) => [m.content, m.message_uid])).toEqual([
      ["version one", uid],
      ["version two".replace("two", "three"), uid],
    ]);
    const db = rawDb(tmp.file());
    expect(db.prepare("SELECT COUNT(*) AS n FROM messages WHERE message_uid = ? AND active = 1").get(uid)).toEqual({ n: 2 });
    db.close();
    store.close();
  });
});
