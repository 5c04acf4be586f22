import { describe, expect, it } from "vitest";
import type { AssistantStep, Canary, FakeSecret, LegacyStore, Scenario, ScenarioHostSettings, ScenarioSession, ScenarioTurn, ScriptedToolCall } from "./format.ts";
import { buildScenario } from "./catalogue/index.ts";
import { parseScenario, readScenarioFile, scenarioToJson } from "./io.ts";
import { findScenarioProblem, ScenarioFormatError } from "./validate.ts";
import { mkdtempSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A scenario that sets every field of the format. Each object is typed `Required<…>`, so a field
 * added to format.ts fails to compile here until it is set, and then fails validation until
 * scenarios/schema.ts declares it: the schema and the type cannot drift apart.
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
    ["an unknown fault kind", (s) => ((s.sessions[0]!.turns[0]!.steps[0] as AssistantStep).fault = { kind: "meteor" } as never), "$.sessions[0].turns[0].steps[0].fault.kind", 'expected one of "transient", "content-policy"'],
    ["a wrong event field", (s) => ((s.schedule[2] as { event: { newSession: unknown } }).event.newSession = 7), "$.schedule[2].event.newSession", "expected a string"],
    ["a schedule naming an unknown session", (s) => (s.schedule[1]!.session = "ghost"), "$.schedule[1].session", 'unknown session "ghost"'],
    ["a turn played out of order", (s) => s.schedule.splice(1, 1), "$.schedule", "plays 0"],
    ["a created session played before its creation", (s) => s.schedule.splice(2, 0, ...s.schedule.splice(3, 1)), "$.schedule[2].session", "used before the event"],
    ["a canary whose fact lacks its token", (s) => (s.canaries[0]!.fact = "nothing here"), "$.canaries[0].fact", "does not contain"],
    ["a canary past the session's turns", (s) => (s.canaries[0]!.turn = 4), "$.canaries[0].turn", "past the session"],
    ["a turn-ending fault before another step", (s) => s.sessions[0]!.turns[0]!.steps.reverse(), "$.sessions[0].turns[0].steps[0].fault", "must be the last step"],
    ["a legacy row with a uid", (s) => (s.legacyStore!.sessions[0]!.messages[0]!.message_uid = "x".repeat(32)), "$.legacyStore.sessions[0].messages[0].message_uid", "no message_uid column"],
    ["a rule id that is not one", (s) => s.rules.push("uid one"), "$.rules[1]", "must match"],
    [
      "a rewrite of a message past what the session can hold",
      (s) => s.schedule.push({ kind: "event", session: "s1", event: { type: "content-rewrite", messageIndex: 7, content: "x" } }),
      "$.schedule[6].event.messageIndex",
      'message 7 is past the 7 message(s) session "s1" can hold at that point',
    ],
    [
      "a duplicate of a message a rewind dropped",
      (s) => s.schedule.push(
        { kind: "event", session: "s1", event: { type: "rewind", keepMessages: 2 } },
        { kind: "event", session: "s1", event: { type: "duplicate-row", messageIndex: 2, content: "x" } },
      ),
      "$.schedule[7].event.messageIndex",
      "past the 2 message(s)",
    ],
    [
      "a rewrite in a branch past what it copied",
      (s) => s.schedule.splice(4, 0, { kind: "event", session: "s2", event: { type: "content-rewrite", messageIndex: 8, content: "x" } }),
      "$.schedule[4].event.messageIndex",
      'message 8 is past the 6 message(s) session "s2"',
    ],
    ["a million store reopens", (s) => (s.legacyStore!.opens = 1_000_000), "$.legacyStore.opens", "must be <= 1000, got 1000000"],
    ["a compaction timeout past Node's timer limit", (s) => (s.host!.compactionTimeoutMs = 1e10), "$.host.compactionTimeoutMs", "must be <= 2147483647"],
    ["a session id __proto__", (s) => (s.schedule[2] = { kind: "event", session: "s1", event: { type: "branch", newSession: "__proto__" } }), "$.schedule[2].event.newSession", 'the session id "__proto__" is not accepted'],
    ["a constructor key", (s) => Object.defineProperty(s.sessions[0], "constructor", { value: 1, enumerable: true }), "$.sessions[0].constructor", 'unknown property "constructor"'],
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
    expect(() => readScenarioFile(file)).toThrow(`${file}: $.context_length: expected an integer`);
    writeFileSync(file, "{not json");
    expect(() => readScenarioFile(file)).toThrow(/bad\.json: \$: not JSON/);
  });

  it('refuses a "__proto__" key in a content part when the file is read, by its path', () => {
    const dir = mkdtempSync(join(tmpdir(), "ctxbench-scenario-"));
    const file = join(dir, "proto.json");
    const scenario = maximalScenario();
    scenario.sessions[0]!.turns[0]!.user = [{ type: "text", text: "hi", extra: "PROTO" }];
    writeFileSync(file, JSON.stringify(scenario).replace('"extra":"PROTO"', '"__proto__":{"polluted":true}'));
    expect(() => readScenarioFile(file)).toThrow(`${file}: $.sessions[0].turns[0].user[0].__proto__: the key "__proto__" is not accepted`);
  });

  it("refuses a file nesting a content part deeper than the limit, and one past the size limit, by name", () => {
    const dir = mkdtempSync(join(tmpdir(), "ctxbench-scenario-"));
    const file = join(dir, "deep.json");
    const scenario = maximalScenario();
    scenario.sessions[0]!.turns[0]!.user = [{ type: "text", text: "hi", extra: "DEEP" }];
    writeFileSync(file, JSON.stringify(scenario).replace('"DEEP"', `${'{"k":'.repeat(50_000)}1${"}".repeat(50_000)}`));
    expect(() => readScenarioFile(file)).toThrow(ScenarioFormatError);
    expect(() => readScenarioFile(file)).toThrow(/deep\.json: \$\.sessions\[0\]\.turns\[0\]\.user\[0\]\.extra(\.k)+…: nested deeper than 64 levels/);
    const huge = join(dir, "huge.json");
    writeFileSync(huge, "");
    truncateSync(huge, 300 * 1024 * 1024);
    expect(() => readScenarioFile(huge)).toThrow(`${huge} is 300 MiB; ctxbench reads scenario files of at most 256 MiB`);
    expect(() => readScenarioFile(dir)).toThrow(`cannot read scenario file ${dir}: EISDIR`);
  });
});
