import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Message, MessageContent } from "../contract/types.ts";
import {
  INFLIGHT_TASK_HEADER,
  mergeAdjacentUserTurns,
  mergeAnchorIntoUserMessage,
  repairAlternation,
  restateInflightTask,
} from "./merges.ts";
import { recordAbsorbedMessage } from "./witness.ts";
import { assistant, openStore, rawDb, tempDir, user } from "./test-support.ts";

const A = "a".repeat(32);
const B = "b".repeat(32);
const C = "c".repeat(32);
const T = "d".repeat(32);

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

const storedWitness = (path: string): Array<string | null> => {
  const db = rawDb(path);
  const rows = db.prepare("SELECT absorbed_message_uids FROM messages WHERE active = 1 ORDER BY id").all() as Array<{ absorbed_message_uids: string | null }>;
  db.close();
  return rows.map((row) => row.absorbed_message_uids);
};

describe("merges keep the first uid and record the rest (UID-5)", () => {
  it("merges consecutive users with a blank line: the survivor keeps the first uid and absorbs the others in text order", () => {
    const messages = [user("first", { message_uid: A }), user("second", { message_uid: B }), user("third", { message_uid: C })];
    repairAlternation(messages);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ content: "first\n\nsecond\n\nthird", message_uid: A, _absorbed_message_uids: [B, C] });
  });

  it("merges consecutive assistants by their stripped text and records the later uid", () => {
    const messages = [assistant("  one  ", [], { message_uid: A }), assistant("two\n", [], { message_uid: B })];
    repairAlternation(messages);
    expect(messages[0]).toMatchObject({ content: "one\ntwo", message_uid: A, _absorbed_message_uids: [B] });
  });

  it("does not record a superseded verification candidate: the later message survives alone", () => {
    const candidate = assistant("candidate", [], { message_uid: A, finish_reason: "verification_required" });
    const verified = assistant("verified", [], { message_uid: B });
    const messages = [user("q", { message_uid: C }), candidate, verified];
    repairAlternation(messages);
    expect(messages).toHaveLength(2);
    expect(messages[1]).toBe(verified);
    expect(verified._absorbed_message_uids).toBeUndefined();
  });

  it.each([
    ["multimodal earlier, text later", [{ type: "text", text: "see image" }], "later text"],
    ["text earlier, multimodal later", "earlier text", [{ type: "image_url", image_url: { url: "data:," } }]],
    ["multimodal on both sides", [{ type: "text", text: "x" }], [{ type: "text", text: "y" }]],
  ] as const)("records no witness when an assistant fold discards text (%s)", (_case, first, second) => {
    const messages: Message[] = [
      { role: "assistant", content: structuredClone(first) as MessageContent, message_uid: A },
      { role: "assistant", content: structuredClone(second) as MessageContent, message_uid: B },
    ];
    repairAlternation(messages);
    expect(messages).toHaveLength(1);
    expect(messages[0]?.message_uid).toBe(A);
    expect(messages[0]?._absorbed_message_uids).toBeUndefined();
  });

  it("restates the in-flight task onto the summary carrier, which keeps its uid and absorbs the task's", () => {
    const carrier = user("[summary] earlier work", { message_uid: A, _compressed_summary: true });
    restateInflightTask(carrier, user("fix the login bug", { message_uid: B }));
    expect(carrier).toMatchObject({ content: `[summary] earlier work${INFLIGHT_TASK_HEADER}fix the login bug`, message_uid: A, _absorbed_message_uids: [B] });
  });

  it("folds a real user anchor into trailing scaffolding: the composite takes the anchor's uid, the scaffold's old uid follows the anchor's witness", () => {
    const scaffold = user("continue from the summary", { message_uid: T });
    mergeAnchorIntoUserMessage(scaffold, user("real question", { message_uid: A, _absorbed_message_uids: [B] }));
    expect(scaffold).toMatchObject({ content: "real question\n\ncontinue from the summary", message_uid: A, _absorbed_message_uids: [B, T] });

    const neverPersisted = user("scaffold without a row");
    mergeAnchorIntoUserMessage(neverPersisted, user("anchor", { message_uid: A }));
    expect(neverPersisted.message_uid).toBe(A);
    expect(neverPersisted._absorbed_message_uids).toBeUndefined();
  });

  it("micro-compaction's adjacent-user merge joins the text, marks the survivor model-only and records the witness", () => {
    const messages = [user("one", { message_uid: A, api_content: "one (api)" }), user("two", { message_uid: B })];
    mergeAdjacentUserTurns(messages);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ content: "one\n\ntwo", message_uid: A, _absorbed_message_uids: [B], display_metadata: { model_only: true } });
    expect(messages[0]).not.toHaveProperty("api_content");
  });

  it("dedups the witness, drops the survivor's own uid and ignores constituents without a uid", () => {
    const survivor = user("s", { message_uid: A, _absorbed_message_uids: [B] });
    recordAbsorbedMessage(survivor, user("x", { message_uid: B, _absorbed_message_uids: [A, C] }));
    expect(survivor._absorbed_message_uids).toEqual([B, C]);
    const plain = user("p", { message_uid: A });
    recordAbsorbedMessage(plain, user("unflushed"));
    expect(plain).not.toHaveProperty("_absorbed_message_uids");
  });
});

describe("the witness is persisted and restored", () => {
  it("a flushed survivor stores absorbed_message_uids as exact JSON and the restore returns the list", () => {
    const path = tmp.file();
    const store = openStore(path);
    const live = [user("first"), user("second"), user("third")];
    store.appendMessages("s", live);
    const [first, second, third] = live as [Message, Message, Message];
    repairAlternation(live);
    store.replaceMessages("s", live);
    expect(storedWitness(path)).toEqual([`["${second.message_uid}", "${third.message_uid}"]`]);
    store.close();
    const reopened = openStore(path);
    expect(reopened.getMessages("s")).toEqual([
      expect.objectContaining({ content: "first\n\nsecond\n\nthird", message_uid: first.message_uid, _absorbed_message_uids: [second.message_uid, third.message_uid] }),
    ]);
    reopened.close();
  });

  it("records a merge made while restoring the same way, without writing it back", () => {
    const path = tmp.file();
    const store = openStore(path);
    const live = [user("first"), user("second"), assistant("reply")];
    store.appendMessages("s", live);
    const repaired = store.getMessages("s", { repairAlternation: true });
    expect(repaired[0]).toMatchObject({ message_uid: live[0]?.message_uid, _absorbed_message_uids: [live[1]?.message_uid] });
    expect(storedWitness(path)).toEqual([null, null, null]);
    store.close();
  });

  it("keeps the witness across a compaction copy, a tail clone and export/import, byte-exact", () => {
    const store = openStore(tmp.file("a.db"));
    const survivor = user("merged", { _absorbed_message_uids: [B] });
    store.appendMessages("s", [survivor, assistant("ok")]);
    const watermark = store.watermark("s");
    const lateSurvivor = user("late merged", { _absorbed_message_uids: [C] });
    store.appendMessages("s", [lateSurvivor]);
    const copies = store.getMessages("s").slice(0, 2).map((m) => ({ ...m }));
    store.compactInPlace("s", copies, watermark);
    const exported = store.exportSession("s");
    // Closed, so the pass's archive mark is in the stored flags another build reads.
    store.close();
    expect(storedWitness(tmp.file("a.db"))).toEqual([`["${B}"]`, null, `["${C}"]`]);
    const target = openStore(tmp.file("b.db"));
    target.importSessions([exported]);
    expect(storedWitness(tmp.file("b.db"))).toEqual([`["${B}"]`, null, `["${C}"]`]);
    expect(target.getMessages("s").map((m) => m._absorbed_message_uids)).toEqual([[B], undefined, [C]]);
    target.close();
  });

  it("persists the witness through a row-addressed rewrite of the survivor", () => {
    const path = tmp.file();
    const store = openStore(path);
    const live = [user("first"), user("second")];
    store.appendMessages("s", live);
    const [first, second] = live as [Message, Message];
    recordAbsorbedMessage(first, second);
    first.content = "first\n\nsecond";
    store.rewriteMessage("s", first);
    expect(storedWitness(path)[0]).toBe(`["${second.message_uid}"]`);
    store.close();
  });
});
