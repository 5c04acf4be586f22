import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createSeededMinter } from "../store/index.ts";
import { UsageError } from "../util/errors.ts";
import { ScenarioPlayError, SqliteHostStore } from "./sqlite-store.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function open(): SqliteHostStore {
  const dir = mkdtempSync(join(tmpdir(), "ctxbench-host-store-"));
  dirs.push(dir);
  return SqliteHostStore.open({ path: join(dir, "sessions.db"), mintUid: createSeededMinter(1), now: () => 1 });
}

describe("scenario events addressed to a message index", () => {
  it("apply to the message at that index", () => {
    const store = open();
    store.append("s", [{ role: "system", content: "sys" }, { role: "user", content: "before" }]);
    store.rewriteContent("s", 1, "after");
    expect(store.restore("s").map((m) => m.content)).toEqual(["sys", "after"]);
    store.close();
  });

  it("name the scenario, not ctxbench, when this play left fewer messages than the index (exit 2)", () => {
    const store = open();
    store.append("s", [{ role: "system", content: "sys" }, { role: "user", content: "only" }]);
    expect(() => store.rewriteContent("s", 5, "x")).toThrow(ScenarioPlayError);
    expect(() => store.duplicateRow("s", 5, "x")).toThrow(UsageError);
    expect(() => store.rewriteContent("s", 5, "x")).toThrow(`the scenario's event names message 5 of session "s", which holds 2 message(s) at that point of this play`);
    store.close();
  });
});
