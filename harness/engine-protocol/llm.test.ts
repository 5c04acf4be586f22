import { describe, expect, it } from "vitest";
import { ExtractiveSummarizer } from "../../engines/shared/extractive-summarizer.ts";
import { scriptedLlm, summarizerLlm } from "./llm.ts";
import type { LlmCallParams } from "./messages.ts";

const ask = (messages: unknown[], max_tokens: number | null = null): LlmCallParams => ({ task: "compression", messages, model: null, temperature: 0.3, max_tokens, timeout: 60 });
const TRANSCRIPT = [
  { role: "system", content: "Summarize the conversation." },
  { role: "user", content: "We decided to rename the ledger table to balances. The migration lives in db/migrate/014_balances.sql." },
];

describe("the host's answer to an engine's call_llm", () => {
  it("is the deterministic extractive summary of the messages sent, the system prompt aside", async () => {
    const llm = summarizerLlm(new ExtractiveSummarizer());
    const first = await llm(ask(TRANSCRIPT));
    const again = await llm(ask(TRANSCRIPT));
    expect(first).toEqual(again);
    expect("content" in first && first.content).toContain("014_balances.sql");
    expect("content" in first && first.content).not.toContain("Summarize the conversation");
  });

  it("keeps within max_tokens", async () => {
    const long = [{ role: "user", content: Array.from({ length: 400 }, (_, i) => `Fact ${i}: the value of key${i} is ${i * 7}.`).join(" ") }];
    const answer = await summarizerLlm(new ExtractiveSummarizer())(ask(long, 50));
    expect("content" in answer && answer.content!.length).toBeLessThanOrEqual(50 * 4 + 200);
  });

  it("scripted failures answer in order, then the real answer", async () => {
    const llm = scriptedLlm(["timeout", null, "empty", "auth"], () => ({ content: "real" }));
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await llm(ask(TRANSCRIPT)));
    expect(answers).toEqual([
      { error: { kind: "timeout", message: "the auxiliary model did not answer in time" } },
      { content: "real" },
      { content: "" },
      { error: { kind: "auth", message: "401: the auxiliary provider refused the credentials" } },
      { content: "real" },
    ]);
  });
});
