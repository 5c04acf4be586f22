import { describe, expect, it } from "vitest";
import { conversationScope } from "./conversation-scope.ts";

describe("conversationScope", () => {
  it("is one per process: a second copy of the module (another installed ctxbench, or the sources beside dist/) shares it", async () => {
    const second = "./conversation-scope.ts?second-copy";
    const copy = (await import(/* @vite-ignore */ second)) as typeof import("./conversation-scope.ts");
    expect(copy).not.toBe(await import("./conversation-scope.ts"));
    expect(copy.conversationScope).toBe(conversationScope);
    expect(conversationScope.run("a conversation", () => copy.conversationScope.getStore())).toBe("a conversation");
  });
});
