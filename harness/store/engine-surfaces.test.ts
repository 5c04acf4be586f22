import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Message } from "../contract/types.ts";
import { assistant, HEX32, openStore, tempDir, uidOf, user } from "./test-support.ts";

const ENGINE_UID = "e".repeat(32);

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

const uids = (messages: Message[]) => messages.map((m) => m.message_uid);

describe("identity on the engine's surfaces (UID-1, UID-6)", () => {
  it("gives compress() input from a cold restore every stored uid; the commit keeps tail uids and mints the summary", () => {
    const path = tmp.file();
    const first = openStore(path);
    const history = [user("one"), assistant("two"), user("three"), assistant("four")];
    first.appendMessages("s", history);
    first.close();

    const store = openStore(path);
    const input = store.getMessages("s");
    expect(uids(input)).toEqual(uids(history));
    expect(input.every((m) => !("_row_id" in m))).toBe(true);
    const watermark = store.watermark("s");
    const arrivedDuringPass = [user("five")];
    store.appendMessages("s", arrivedDuringPass);

    const summary: Message = { role: "user", content: "[summary] one, two" };
    const output = [summary, ...input.slice(2).map((m) => ({ ...m }))];
    const live = store.compactInPlace("s", output, watermark);
    expect(uidOf(summary)).toMatch(HEX32);
    expect(uids(history)).not.toContain(summary.message_uid);
    expect(uids(live)).toEqual([summary.message_uid, history[2]?.message_uid, history[3]?.message_uid, arrivedDuringPass[0]?.message_uid]);
    store.close();
  });

  it.each(["in place", "rotation"] as const)("writes an engine-authored uid through the commit (%s) and returns it on every later restore and copy", (mode) => {
    const path = tmp.file();
    const store = openStore(path);
    store.appendMessages("s", [user("a"), assistant("b"), user("c")]);
    const input = store.getMessages("s");
    const carrier: Message = { role: "user", content: "[summary]", message_uid: ENGINE_UID };
    const output = [carrier, { ...input[2] } as Message];
    const session = mode === "in place" ? "s" : "child";
    const live = mode === "in place" ? store.compactInPlace("s", output, store.watermark("s")) : store.rotate("s", "child", output);
    expect(live[0]?.message_uid).toBe(ENGINE_UID);
    expect(carrier.message_uid).toBe(ENGINE_UID);
    store.close();

    const reopened = openStore(path);
    expect(reopened.getMessages(session)[0]?.message_uid).toBe(ENGINE_UID);
    const next = reopened.compactInPlace(session, reopened.getMessages(session).map((m) => ({ ...m })), reopened.watermark(session));
    expect(next[0]?.message_uid).toBe(ENGINE_UID);
    const exported = reopened.exportSession(session);
    reopened.close();
    const other = openStore(tmp.file("other.db"));
    other.importSessions([exported]);
    expect(other.getMessages(session)[0]?.message_uid).toBe(ENGINE_UID);
    other.close();
  });

  it("a turn flush stamps the row's uid on every live object, the current-turn user message included", () => {
    const store = openStore(tmp.file());
    const live: Message[] = [user("earlier"), assistant("reply")];
    store.flush("s", live, 0);
    const currentTurn = user("current turn");
    live.push(currentTurn, assistant("answer"));
    store.flush("s", live, 2);
    const rows = store.getRows("s");
    expect(live.map((m) => m.message_uid)).toEqual(rows.map((row) => row.message_uid));
    expect(live.map((m) => m._row_id)).toEqual(rows.map((row) => row.id));
    expect(uidOf(currentTurn)).toMatch(HEX32);
    store.close();
  });

  it("a persist override of a restored message keeps its uid: the new row shares it with the old one (UID-7)", () => {
    const store = openStore(tmp.file());
    store.appendMessages("s", [user("q"), assistant("draft answer")]);
    const restored = store.getMessages("s");
    const override = { ...restored[1], content: "corrected answer" } as Message;
    store.appendMessages("s", [override]);
    expect(override.message_uid).toBe(restored[1]?.message_uid);
    const active = store.getMessages("s");
    expect(active.map((m) => [m.content, m.message_uid])).toEqual([
      ["q", restored[0]?.message_uid],
      ["draft answer", restored[1]?.message_uid],
      ["corrected answer", restored[1]?.message_uid],
    ]);
    store.close();
  });

  it("works for a preflight pass whose current user message has no uid yet; the same object gets one at the flush", () => {
    const store = openStore(tmp.file());
    const live = [user("earlier")];
    store.flush("s", live, 0);
    const pending = user("not flushed yet");
    live.push(pending);
    const snapshot = live.map((m) => ({ ...m }));
    expect(snapshot[1]).not.toHaveProperty("message_uid");
    const live2 = store.compactInPlace("s", [{ role: "user", content: "[summary]" }], store.watermark("s"));
    expect(live2).toHaveLength(1);
    store.flush("s", live, 1);
    expect(uidOf(pending)).toMatch(HEX32);
    expect(store.getMessages("s")[1]?.message_uid).toBe(pending.message_uid);
    store.close();
  });
});
