import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Message } from "../../harness/contract/types.ts";
import { LcmStore } from "./store.ts";

const uid = (n: number) => n.toString(16).padStart(32, "0");
const search = (store: LcmStore, word: string) => store.searchMessages(["s"], [word], word, true, 10);

describe("lcm store ingestion (UID-2, UID-4, UID-7)", () => {
  it("stores a transcript once, however often the host hands it over", () => {
    const store = LcmStore.open(":memory:");
    const messages: Message[] = [
      { role: "user", content: "alpha", message_uid: uid(1) },
      { role: "assistant", content: "ok" },
      { role: "user", content: "beta" },
      { role: "assistant", content: "ok" },
    ];
    const first = store.ingest("s", messages);
    const again = store.ingest("s", structuredClone(messages));
    expect(again).toEqual(first);
    // Two equal messages without a uid are two rows, not one.
    expect(new Set(first).size).toBe(4);
  });

  it("keeps a content change under a known uid as a new version, the latest being current", () => {
    const store = LcmStore.open(":memory:");
    store.ingest("s", [{ role: "user", content: "original wording", message_uid: uid(1) }]);
    expect(() => store.ingest("s", [{ role: "user", content: "rewritten wording", message_uid: uid(1) }])).not.toThrow();
    expect(search(store, "original")[0]?.current).toBe(false);
    expect(search(store, "rewritten")[0]?.current).toBe(true);
  });

  it("treats the later of two active rows sharing a uid as the current version", () => {
    const store = LcmStore.open(":memory:");
    const rows = store.ingest("s", [
      { role: "user", content: "first copy", message_uid: uid(7) },
      { role: "user", content: "edited copy", message_uid: uid(7) },
    ]);
    expect(rows[0]).not.toBe(rows[1]);
    expect(search(store, "first")[0]?.current).toBe(false);
    expect(search(store, "edited")[0]?.current).toBe(true);
    // Handing the same two rows over again changes nothing.
    expect(store.ingest("s", [
      { role: "user", content: "first copy", message_uid: uid(7) },
      { role: "user", content: "edited copy", message_uid: uid(7) },
    ])).toEqual(rows);
  });

  it("masks credentials in what it keeps, while a re-sent original still matches its row", () => {
    const dir = mkdtempSync(join(tmpdir(), "lcm-store-"));
    const secret = "sk-proj-" + "Ab3".repeat(16);
    const message: Message = { role: "tool", tool_call_id: "c1", content: `OPENAI_KEY=${secret} exported`, message_uid: uid(3) };
    const store = LcmStore.open(join(dir, "lcm.sqlite"));
    const rows = store.ingest("s", [message]);
    expect(store.ingest("s", [structuredClone(message)])).toEqual(rows);
    expect(search(store, "exported")[0]?.text).toContain("[REDACTED]");
    store.close();
    expect(readFileSync(join(dir, "lcm.sqlite")).includes(secret)).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps sessions apart in search and follows a session's lineage", () => {
    const store = LcmStore.open(":memory:");
    store.ensureSession("parent", null);
    store.ensureSession("child", "parent");
    store.ingest("parent", [{ role: "user", content: "marmalade" }]);
    store.ingest("other", [{ role: "user", content: "marmalade too" }]);
    expect(store.lineage("child")).toEqual(["child", "parent"]);
    expect(store.searchMessages(store.lineage("child"), ["marmalade"], "marmalade", true, 10).map((h) => h.session)).toEqual(["parent"]);
  });
});

describe("lcm store reads remembered while the store stays as it is", () => {
  it("answers a remembered read until a write changes the store, then reads again; a prepared statement serves every call", () => {
    const store = LcmStore.open(":memory:");
    store.ingest("s", [{ role: "user", content: "alpha one", message_uid: uid(1) }]);
    let reads = 0;
    const hits = () => store.memo("hits", () => (reads++, search(store, "alpha").length));
    expect([hits(), hits()]).toEqual([1, 1]);
    expect(reads).toBe(1);
    // Handing over what the store already holds changes nothing.
    store.ingest("s", [{ role: "user", content: "alpha one", message_uid: uid(1) }]);
    expect(hits()).toBe(1);
    expect(reads).toBe(1);
    store.ingest("s", [{ role: "user", content: "alpha two", message_uid: uid(2) }]);
    expect(hits()).toBe(2);
    expect(reads).toBe(2);
    // The same query again and again (statements are prepared once and kept) still sees new rows.
    for (let n = 3; n <= 5; n++) {
      store.ingest("s", [{ role: "user", content: `alpha ${n}`, message_uid: uid(n) }]);
      expect(search(store, "alpha")).toHaveLength(n);
      expect(store.messageFrequency(["s"], "alpha")).toBe(n);
    }
  });
});
