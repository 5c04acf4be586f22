import { describe, expect, it } from "vitest";
import type { Message } from "../../harness/contract/types.ts";
import { ExtractiveSummarizer } from "./extractive-summarizer.ts";
import { parseSummary } from "./summary-sections.ts";

const user = (content: string): Message => ({ role: "user", content });
const say = (content: string): Message => ({ role: "assistant", content });
const call = (id: string, name: string, args: Record<string, unknown>): Message => ({
  role: "assistant",
  content: null,
  tool_calls: [{ id, type: "function", function: { name, arguments: JSON.stringify(args) } }],
});
const result = (id: string, content: string): Message => ({ role: "tool", tool_call_id: id, content });

const session: Message[] = [
  user("Please fix the failing login test in src/auth/login.ts."),
  call("c1", "read_file", { path: "src/auth/login.ts" }),
  result("c1", "export function login() {}\n// 40 more lines"),
  call("c2", "terminal", { command: "npm test" }),
  result("c2", "FAIL src/auth/login.test.ts\nError: expected 200, received 500\nexit code 1"),
  say("I decided to switch to the session cookie instead of the bearer header. The login handler is tagged AUTH-4411."),
  user("Good. Also update docs/auth.md when done."),
];

const summarizer = new ExtractiveSummarizer();
const headings = (text: string) => text.split("\n").filter((line) => line.startsWith("## "));

describe("ExtractiveSummarizer", () => {
  it("writes the asks, actions, files, errors, decisions and facts in sections", () => {
    const text = summarizer.summarize({ messages: session, budgetTokens: 800 });
    const parsed = parseSummary(text);
    expect(parsed.sections.get("asks")).toEqual([
      "Goal: Please fix the failing login test in src/auth/login.ts.",
      "Good. Also update docs/auth.md when done.",
    ]);
    expect(parsed.sections.get("actions")).toEqual(["read_file path=src/auth/login.ts → 2 lines", "terminal command=npm test → failed"]);
    expect(parsed.sections.get("files")).toEqual(expect.arrayContaining(["src/auth/login.ts", "docs/auth.md"]));
    expect(parsed.sections.get("errors")).toEqual(["[terminal command=npm test] FAIL src/auth/login.test.ts"]);
    expect(parsed.sections.get("decisions")?.[0]).toMatch(/^I decided to switch to the session cookie/);
    expect(parsed.sections.get("facts")).toEqual(["The login handler is tagged AUTH-4411."]);
  });

  it("is deterministic", () => {
    const a = summarizer.summarize({ messages: session, budgetTokens: 300, focusTopic: "login" });
    const b = new ExtractiveSummarizer().summarize({ messages: session, budgetTokens: 300, focusTopic: "login" });
    expect(a).toBe(b);
  });

  it("stays within the budget however long the history", () => {
    const long: Message[] = [];
    for (let i = 0; i < 400; i++) {
      long.push(user(`Step ${i}: check module m${i}.ts and keep the result. We will never skip step ${i}.`));
      long.push(call(`c${i}`, "read_file", { path: `src/m${i}.ts` }));
      long.push(result(`c${i}`, `Error: m${i} missing export\n`.repeat(3)));
    }
    for (const budget of [1, 10, 40, 200, 1000]) {
      const text = summarizer.summarize({ messages: long, budgetTokens: budget });
      expect(text.length, `budget ${budget}`).toBeLessThanOrEqual(budget * 4);
    }
    const roomy = summarizer.summarize({ messages: long, budgetTokens: 1000 });
    expect(roomy).toContain("Goal: Step 0: check module m0.ts"); // the goal is pinned
    expect(roomy).toContain("Step 399:"); // and the newest asks are kept
    expect(roomy).toContain("- … earlier items omitted");
  });

  it("updates a previous summary instead of stacking a second one", () => {
    const first = summarizer.summarize({ messages: session.slice(0, 5), budgetTokens: 800 });
    const later: Message[] = [
      user("Now rename the helper in src/auth/session.ts."),
      call("c9", "edit_file", { path: "src/auth/session.ts" }),
      result("c9", "ok"),
    ];
    const second = summarizer.summarize({ messages: later, previousSummary: first, budgetTokens: 800 });
    const counts = new Map<string, number>();
    for (const heading of headings(second)) counts.set(heading, (counts.get(heading) ?? 0) + 1);
    expect([...counts.values()].every((count) => count === 1)).toBe(true);
    const parsed = parseSummary(second);
    expect(parsed.sections.get("asks")).toEqual([
      "Goal: Please fix the failing login test in src/auth/login.ts.",
      "Now rename the helper in src/auth/session.ts.",
    ]);
    expect(parsed.sections.get("actions")).toEqual([
      "read_file path=src/auth/login.ts → 2 lines",
      "terminal command=npm test → failed",
      "edit_file path=src/auth/session.ts → 1 lines",
    ]);
    expect(parsed.sections.get("errors")).toHaveLength(1);
  });

  it("places a previous summary between older and newer messages", () => {
    const previous = summarizer.summarize({ messages: [user("Migrate the queue to Redis streams.")], budgetTokens: 300 });
    const messages = [user("First of all, set up the repo."), say("Repo ready."), user("Now add metrics.")];
    const text = summarizer.summarize({ messages, previousSummary: previous, previousSummaryAt: 2, budgetTokens: 300 });
    expect(parseSummary(text).sections.get("asks")).toEqual([
      "Goal: First of all, set up the repo.",
      "Migrate the queue to Redis streams.",
      "Now add metrics.",
    ]);
    const after = summarizer.summarize({ messages: messages.slice(2), previousSummary: previous, budgetTokens: 300 });
    expect(parseSummary(after).sections.get("asks")).toEqual(["Goal: Migrate the queue to Redis streams.", "Now add metrics."]);
  });

  it("gives the focus topic most of the budget and keeps more of its facts", () => {
    const history: Message[] = [];
    for (let i = 0; i < 60; i++) {
      history.push(user(`Task ${i}: tidy the billing page layout number ${i}. Remember the billing rate for plan ${i} is RATE-${1000 + i}.`));
      history.push(user(`Note that the database replica ${i} is tagged DB-${5000 + i}.`));
    }
    const budgetTokens = 300;
    const plain = summarizer.summarize({ messages: history, budgetTokens });
    const focused = summarizer.summarize({ messages: history, budgetTokens, focusTopic: "database replica" });
    const count = (text: string) => (text.match(/DB-50\d\d/g) ?? []).length;
    expect(headings(focused)[0]).toBe("## Focus: database replica");
    expect(count(focused)).toBeGreaterThan(count(plain));
    const focusBlock = focused.split("\n\n")[0] as string;
    expect(focusBlock.length).toBeGreaterThan(budgetTokens * 4 * 0.5);
    expect(focused.length).toBeLessThanOrEqual(budgetTokens * 4);
  });

  it("accepts a focus topic that matches nothing", () => {
    const text = summarizer.summarize({ messages: session, budgetTokens: 400, focusTopic: "kubernetes" });
    expect(headings(text)[0]).toBe("## User asks");
  });

  it("keeps secrets out of the summary", () => {
    const secret = "sk-proj-ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef0123456789";
    const text = summarizer.summarize({
      messages: [user(`My key is OPENAI_KEY=${secret}, use it.`), call("k", "terminal", { command: `export KEY=${secret}` }), result("k", `error: bad key ${secret}`)],
      budgetTokens: 500,
    });
    expect(text).not.toContain(secret);
    expect(text).toContain("[REDACTED]");
  });

  it("stops when the signal is aborted", () => {
    const controller = new AbortController();
    controller.abort(new Error("host timeout"));
    expect(() => summarizer.summarize({ messages: session, budgetTokens: 400, signal: controller.signal })).toThrow("host timeout");
  });

  it("keeps text it cannot parse from a foreign previous summary as notes", () => {
    const text = summarizer.summarize({ messages: [], previousSummary: "The team agreed on Postgres 16.", budgetTokens: 200 });
    expect(parseSummary(text).sections.get("notes")).toEqual(["The team agreed on Postgres 16."]);
  });
});
