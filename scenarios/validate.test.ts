import { describe, expect, it } from "vitest";
import type { AssistantStep, Canary, FakeSecret, LegacyStore, Scenario, ScenarioHostSettings, ScenarioSession, ScenarioTurn, ScriptedToolCall } from "./format.ts";
import { buildScenario } from "./catalogue/index.ts";
import { parseScenario, readScenarioFile, scenarioToJson } from "./io.ts";
import { findScenarioProblem, ScenarioFormatError } from "./validate.ts";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A scenario that sets every field of the format. Each object is typed `Required<…>`, so a field
 * added to format.ts fails to compile here until it is set, and then fails validation until
 * scenario.schema.json declares it: the schema and the type cannot drift apart.
 */
function maximalScenario(): Scenario {
  const call: Required<ScriptedToolCall> = {
    id: "call_1", name: "read_file", arguments: "{\"path\":\"a.ts\"}", result: [{ type: "text", text: "x" }],
    resultMessageUid: "r".repeat(32), resultToolCallUid: "t".repeat(32), resultMissing: false,
  };
  const step: Required<AssistantStep> = {
    content: null, toolCalls: [call], fault: { kind: "transient", failures: 1 }, messageUid: "a".repeat(32), toolCallUids: { call_1: ["t".repeat(32), null] },
  };
  const turn: Required<ScenarioTurn> = { user: "hi", steps: [step, { content: "done", fault: { kind: "interrupted" } }], taskId: "task-1", userMessageUid: "u".repeat(32) };
  const session: Required<ScenarioSession> = { id: "s1", systemPrompt: "sys", platform: "cli", turns: [turn], systemMessageUid: "s".repeat(32) };
  const canary: Required<Canary> = { session: "s1", topic: "deploy", fact: "the key is DEP-1", token: "DEP-1", turn: 0 };
  const secret: Required<FakeSecret> = { session: "s1", kind: "github-pat", value: "ghp_0123456789", turn: 0 };
  const legacyStore: Required<LegacyStore> = { sessions: [{ id: "s1", messages: [{ role: "user", content: "old" }] }], backfillChunk: 2, backfillBudgetMs: 0, opens: 1 };
  const host: Required<ScenarioHostSettings> = { compactionTimeoutMs: 50, compactionMode: "rotation", poolSize: 2 };
  const scenario: Required<Scenario> = {
    formatVersion: 1, name: "maximal", description: "every field", seed: 3, rules: ["UID-1"], model: "m", context_length: 1000,
    sessions: [session, { id: "s2", systemPrompt: "", turns: [{ user: "x", steps: [] }] }],
    schedule: [
      { kind: "event", session: "s1", event: { type: "compress", focus_topic: "deploy" } },
      { kind: "turn", session: "s1", turn: 0 },
      { kind: "event", session: "s1", event: { type: "branch", newSession: "s2" } },
      { kind: "turn", session: "s2", turn: 0 },
      { kind: "event", session: "s1", event: { type: "legacy-write", messages: [{ role: "user", content: "old build" }] } },
      { kind: "event", session: "s1", event: { type: "duplicate-row", messageIndex: 1, content: "again" } },
    ],
    canaries: [canary], secrets: [secret], legacyStore, host,
  };
  return scenario;
}

describe("scenario validation", () => {
  it("accepts a scenario that sets every field of the format", () => {
    expect(findScenarioProblem(maximalScenario())).toBeNull();
  });

  it("accepts every catalogue scenario round-tripped through its JSON", () => {
    for (const name of ["basic", "copies", "schema-upgrade", "provider-faults"]) {
      expect(() => parseScenario(scenarioToJson(buildScenario(name)), name)).not.toThrow();
    }
  });

  const mutations: Array<[string, (s: Scenario) => void, string, string]> = [
    ["a turn without a user message", (s) => delete (s.sessions[0]!.turns[0] as Partial<ScenarioTurn>).user, "$.sessions[0].turns[0]", 'missing required property "user"'],
    ["an unknown field", (s) => ((s.sessions[0] as unknown as Record<string, unknown>).colour = "red"), "$.sessions[0].colour", "unknown property"],
    ["an unknown fault kind", (s) => ((s.sessions[0]!.turns[0]!.steps[0] as AssistantStep).fault = { kind: "meteor" } as never), "$.sessions[0].turns[0].steps[0].fault", 'kind="transient"'],
    ["a wrong event field", (s) => ((s.schedule[2] as { event: { newSession: unknown } }).event.newSession = 7), "$.schedule[2].event.newSession", "expected string"],
    ["a schedule naming an unknown session", (s) => (s.schedule[1]!.session = "ghost"), "$.schedule[1].session", 'unknown session "ghost"'],
    ["a turn played out of order", (s) => s.schedule.splice(1, 1), "$.schedule", "plays 0"],
    ["a created session played before its creation", (s) => s.schedule.splice(2, 0, ...s.schedule.splice(3, 1)), "$.schedule[2].session", "used before the event"],
    ["a canary whose fact lacks its token", (s) => (s.canaries[0]!.fact = "nothing here"), "$.canaries[0].fact", "does not contain"],
    ["a canary past the session's turns", (s) => (s.canaries[0]!.turn = 4), "$.canaries[0].turn", "past the session"],
    ["a turn-ending fault before another step", (s) => s.sessions[0]!.turns[0]!.steps.reverse(), "$.sessions[0].turns[0].steps[0].fault", "must be the last step"],
    ["a legacy row with a uid", (s) => (s.legacyStore!.sessions[0]!.messages[0]!.message_uid = "x".repeat(32)), "$.legacyStore.sessions[0].messages[0].message_uid", "no message_uid column"],
    ["a rule id that is not one", (s) => s.rules.push("uid one"), "$.rules[1]", "must match"],
  ];

  it.each(mutations)("rejects %s at its JSON path", (_label, mutate, path, message) => {
    const scenario = maximalScenario();
    mutate(scenario);
    const problem = findScenarioProblem(scenario);
    expect(problem?.path).toBe(path);
    expect(problem?.message).toContain(message);
  });

  it("names the file and the path when reading a bad scenario file", () => {
    const dir = mkdtempSync(join(tmpdir(), "ctxbench-scenario-"));
    const file = join(dir, "bad.json");
    const scenario = maximalScenario() as unknown as Record<string, unknown>;
    scenario.context_length = "big";
    writeFileSync(file, JSON.stringify(scenario));
    expect(() => readScenarioFile(file)).toThrow(ScenarioFormatError);
    expect(() => readScenarioFile(file)).toThrow(`${file}: $.context_length: expected integer`);
    writeFileSync(file, "{not json");
    expect(() => readScenarioFile(file)).toThrow(/bad\.json: \$: not JSON/);
  });
});
