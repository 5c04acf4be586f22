import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Message } from "../contract/types.ts";
import { StoreInputError } from "./errors.ts";
import { assistant, openStore, tempDir, user } from "./test-support.ts";

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

const circular = (): unknown[] => {
  const part: Record<string, unknown> = { type: "text", text: "loop" };
  part.self = part;
  return [part];
};

const deeplyNested = (): unknown => {
  let value: unknown[] = [];
  for (let i = 0; i < 200_000; i++) value = [value];
  return value;
};

describe("a batch the store cannot persist is refused whole", () => {
  it.each([
    ["a message that is not an object", () => "just a string", /message 1 is not an object/],
    ["null", () => null, /message 1 is not an object/],
    ["a role that is not a string", () => ({ role: 7, content: "x" }), /message 1: role must be a non-empty string/],
    ["content with a BigInt", () => ({ role: "user", content: [{ type: "text", text: 1n }] }), /message 1: content is not JSON-serialisable/],
    ["circular content", () => ({ role: "user", content: circular() }), /message 1: content is not JSON-serialisable/],
    ["content holding a function", () => ({ role: "user", content: [{ type: "text", text: () => "x" }] }), /message 1: content is not JSON-serialisable/],
    ["content that is a number", () => ({ role: "user", content: 5 }), /message 1: content must be a string/],
    ["content nested deeper than the stack", () => ({ role: "user", content: [{ type: "text", text: "x", nested: deeplyNested() }] }), /message 1: content is not JSON-serialisable \(it is nested too deeply/],
    ["tool calls that cannot be serialised", () => ({ role: "assistant", content: null, tool_calls: [{ id: "c", n: 2n }] }), /message 1: tool_calls is not JSON-serialisable/],
  ])("%s: names the message index, writes nothing and stamps nothing", (_name, bad, pattern) => {
    const store = openStore(tmp.file());
    store.appendMessages("s", [user("already there")]);
    const good = user("valid");
    const after = assistant("also valid");
    const batch = [good, bad(), after] as Message[];
    let thrown: unknown;
    try {
      store.appendMessages("s", batch);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(StoreInputError);
    expect((thrown as StoreInputError).message).toMatch(pattern);
    expect((thrown as StoreInputError).messageIndex).toBe(1);
    expect(store.getMessages("s").map((m) => m.content)).toEqual(["already there"]);
    expect(good).not.toHaveProperty("message_uid");
    store.close();
  });

  it("rolls back rows already inserted when the batch fails part way", () => {
    const store = openStore(tmp.file());
    let minted = 0;
    const failing = openStore(tmp.file(), {
      mintUid: () => {
        minted += 1;
        if (minted === 3) throw new Error("minter failed");
        return minted.toString(16).padStart(32, "0");
      },
    });
    expect(() => failing.appendMessages("s", [user("1"), user("2"), user("3"), user("4")])).toThrow(/minter failed/);
    expect(store.getMessages("s")).toEqual([]);
    failing.close();
    store.close();
  });

  it("refuses the same bad input on every write path", () => {
    const store = openStore(tmp.file());
    const bad = [user("ok"), { role: null } as unknown as Message];
    expect(() => store.compactInPlace("s", bad, 0)).toThrow(/message 1/);
    expect(() => store.replaceMessages("s", bad)).toThrow(/message 1/);
    expect(() => store.rotate("s", "c", bad)).toThrow(/message 1/);
    expect(() => store.branch("s", "b", bad)).toThrow(/message 1/);
    expect(() => store.importForeignHistory("f", bad)).toThrow(/message 1/);
    expect(store.listSessions()).toEqual([]);
    store.close();
  });
});
