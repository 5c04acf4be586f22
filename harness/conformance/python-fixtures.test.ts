import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { ExtractiveSummarizer } from "../../engines/shared/extractive-summarizer.ts";
import { PythonEngineFactory } from "../engine-protocol/hermes.ts";
import { summarizerLlm } from "../engine-protocol/llm.ts";
import { CHECKS } from "./checks/index.ts";
import { runChecks } from "./runner.ts";
import { CAUGHT, HOST_SCENARIOS } from "./test-support.ts";

const KEEPER = fileURLToPath(new URL("./fixtures/python/keeper/", import.meta.url));
const factories: PythonEngineFactory[] = [];
afterAll(() => Promise.all(factories.map((factory) => factory.disposeAll())));

/** keeper, with the flaw of that name (fixtures/python/keeper/flaws.py), as certify would run it. */
function keeper(flaw: string | null) {
  const factory = new PythonEngineFactory(
    { directory: KEEPER, selection: "keeper", mode: "directory" },
    { config: { context: { engine: "keeper" }, ...(flaw ? { keeper: { flaw } } : {}) }, llm: summarizerLlm(new ExtractiveSummarizer()) },
  );
  factories.push(factory);
  return { name: "keeper", version: "1.0.0", selectedName: "keeper", manifestName: "keeper", createFresh: () => factory.createFresh() };
}

/** Each flaw and the check of the rule it breaks (the Python fixture set: every rule family). */
const FLAWS: Array<[flaw: string, check: string]> = [
  ["split-batch", "CMP-2/orphaned-result"],
  ["mutates-conversation", "SEL-6/inputs-unmutated"],
  ["needs-usage", "OTC-5/null-usage"],
  ["requires-uid", "UID-2/missing-uid"],
  ["pairs-by-provider-id", "TCU-3/repeated-tool-call-ids"],
  ["returns-dict", "TOOL-2/json-results"],
  ["reset-keeps-count", "LIFE-2/lifecycle"],
  ["thread-local-session", "THR-1/no-context-affinity"],
  ["shared-scratch", "THR-2/session-isolation"],
  ["misnamed", "REG-5/name-matches-selection"],
  ["clone-is-self", "REG-6/clone-independent"],
  ["integer-answers", "ABC-6/should-compress-boolean"],
  ["duck-typed", "ABC-1/base-class-and-members"],
];

describe("Python fixtures through the Hermes bridge", () => {
  it("the correct engine (keeper) passes every check it is judged by", async () => {
    const results = await runChecks(keeper(null), CHECKS, { seed: 1, scenarios: HOST_SCENARIOS });
    const problems = results.filter((r) => r.outcome !== "pass" && r.outcome !== "skipped").map((r) => `${r.id}: ${r.outcome}: ${r.message}`);
    expect(problems).toEqual([]);
    expect(results.filter((r) => r.outcome === "skipped").map((r) => r.rule)).toEqual(["SEL-6", "SEL-7", "SEL-8", "SEL-9", "CACHE-2"]);
  });

  it("covers every engine-binding rule family", () => {
    const families = new Set(FLAWS.map(([, check]) => check.split("-")[0]));
    expect([...families].sort()).toEqual(["ABC", "CMP", "LIFE", "OTC", "REG", "SEL", "TCU", "THR", "TOOL", "UID"]);
  });

  it.each(FLAWS)("the %s flaw is caught by %s", async (flaw, id) => {
    const rule = CHECKS.find((check) => check.id === id)!.rule;
    const results = await runChecks(keeper(flaw), CHECKS.filter((check) => check.rule === rule), { seed: 1, scenarios: HOST_SCENARIOS });
    const own = results.find((result) => result.id === id)!;
    expect(CAUGHT.has(own.outcome), `${own.outcome}: ${own.message}`).toBe(true);
    expect(own.evidence.length).toBeGreaterThan(0);
  });
});
