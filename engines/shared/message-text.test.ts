import { describe, expect, it } from "vitest";
import type { ToolCall } from "../../harness/contract/types.ts";
import { condense, describeCall, describeResult, filesInText, filesOfCall, firstErrorLine, headAndTail, messageText } from "./message-text.ts";
import { REDACTED, redactSecrets } from "./redact.ts";

const call = (name: string, args: unknown): ToolCall => ({ id: "c", type: "function", function: { name, arguments: typeof args === "string" ? args : JSON.stringify(args) } });

describe("message text helpers", () => {
  it("reads string content and the text parts of multimodal content", () => {
    expect(messageText({ role: "user", content: "hi" })).toBe("hi");
    expect(messageText({ role: "user", content: [{ type: "text", text: "a" }, { type: "image_url", image_url: { url: "x" } }, { type: "text", text: "b" }] })).toBe("a\nb");
    expect(messageText({ role: "assistant", content: null })).toBe("");
  });

  it("condenses whitespace and cuts with an ellipsis", () => {
    expect(condense("  a \n\n b  ", 10)).toBe("a b");
    expect(condense("abcdefghij", 5)).toBe("abcd…");
    expect(headAndTail("0123456789", 2, 3)).toBe("01\n789");
  });

  it("describes a call by its most telling arguments, and tolerates arguments that are not JSON", () => {
    expect(describeCall(call("read_file", { limit: 5, path: "src/a.ts" }))).toBe("read_file path=src/a.ts limit=5");
    expect(describeCall(call("terminal", "not json"))).toBe("terminal");
    expect(describeCall(undefined)).toBe("tool");
  });

  it("describes a result in one line with its size and first error", () => {
    expect(describeResult(call("terminal", { command: "npm test" }), "ok\nTypeError: x is undefined\nexit code 1")).toBe(
      "[terminal command=npm test] 3 lines, 40 chars; TypeError: x is undefined",
    );
  });

  it("finds error reports but not every mention of the word", () => {
    expect(firstErrorLine("line 1\nError: boom")).toBe("Error: boom");
    expect(firstErrorLine("Process exited with exit code 2")).toBe("Process exited with exit code 2");
    expect(firstErrorLine("[2026-01-15T03:23:17Z] ERROR db.ts:429 pool exhausted")).toBe("[2026-01-15T03:23:17Z] ERROR db.ts:429 pool exhausted");
    expect(firstErrorLine("   8 | search error 56\nall good")).toBeNull();
    expect(firstErrorLine('  if (!ok) throw new Error("bad input");')).toBeNull();
  });

  it("finds file paths in call arguments and in prose", () => {
    expect(filesOfCall(call("edit", { path: "a.ts", files: ["b.md", 3, "./"] }))).toEqual(["a.ts", "b.md"]);
    expect(filesOfCall(call("search_files", { path: ".", pattern: "x" }))).toEqual([]);
    expect(filesInText("Look at src/db/pool.ts and (docs/setup.md), not v1.2 or e.g. this.")).toEqual(["src/db/pool.ts", "docs/setup.md"]);
  });
});

describe("redactSecrets", () => {
  const secrets = [
    "sk-proj-0123456789abcdefghijABCDEFGHIJ0123456789abcdefgh",
    "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789_-ABCDEFGHIJ",
    "AKIAABCDEFGHIJKLMNOP",
    "ghp_0123456789abcdefghijABCDEFGHIJ012345",
    "sk_live_0123456789abcdefghijABCD",
    "xoxb-123456789012-1234567890123-abcdefghijklmnopqrstuvwx",
  ];
  for (const secret of secrets) {
    it(`masks ${secret.slice(0, 8)}…`, () => {
      const out = redactSecrets(`use ${secret} now`);
      expect(out).not.toContain(secret);
      expect(out).toContain(REDACTED);
    });
  }

  it("keeps the name of an assigned secret and masks its value", () => {
    expect(redactSecrets("OPENAI_KEY=abc123def456")).toBe(`OPENAI_KEY=${REDACTED}`);
    expect(redactSecrets("password: hunter2hunter2")).toBe(`password: ${REDACTED}`);
    expect(redactSecrets("Authorization: Bearer abcdefghijklmnop")).toBe(`Authorization: Bearer ${REDACTED}`);
    expect(redactSecrets("postgres://admin:s3cretpass@db:5432/app")).toBe(`postgres://admin:${REDACTED}@db:5432/app`);
  });

  it("leaves ordinary text and planted canary facts alone", () => {
    const text = "For the record: the deploy key for falcon is DEP-12345-AB.";
    expect(redactSecrets(text)).toBe(text);
  });
});
