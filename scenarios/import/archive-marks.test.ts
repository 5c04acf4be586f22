import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Message } from "../../harness/contract/types.ts";
import { ARCHIVE_MARKS_TABLE } from "../../harness/store/archive-marks.ts";
import { SessionStore } from "../../harness/store/session-store.ts";
import { tempDir } from "../../harness/store/test-support.ts";
import { ARCHIVE_MARKS_TABLE as IMPORTER_MARKS_TABLE, sessionsFromStore } from "./hermes-store.ts";

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

describe("importing a ctxbench store whose process died before it closed", () => {
  it("honours the archive marks: the compacted history is read, not the archived rows still flagged active", () => {
    expect(IMPORTER_MARKS_TABLE).toBe(ARCHIVE_MARKS_TABLE);
    const path = tmp.file();
    const store = SessionStore.open(path, { settleOnClose: false });
    store.appendMessages("s", Array.from({ length: 6 }, (_, i): Message => ({ role: i % 2 === 0 ? "user" : "assistant", content: `m${i}` })));
    store.compactInPlace("s", [{ role: "user", content: "[summary]" }, { ...store.getMessages("s")[5]! }], store.watermark("s"));
    store.close();
    expect(sessionsFromStore(path)[0]!.messages.map((m) => (m.value as Message).content)).toEqual(["[summary]", "m5"]);
  });
});
