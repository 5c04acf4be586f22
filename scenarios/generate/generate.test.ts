import { createHash } from "node:crypto";
import { faker as globalFaker } from "@faker-js/faker";
import { describe, expect, it } from "vitest";
import type { Scenario, ScriptedToolCall } from "../format.ts";
import { scenarioToJson } from "../io.ts";
import { findScenarioProblem } from "../validate.ts";
import { MAX_INPUT_BYTES } from "../../harness/util/input-limits.ts";
import { estimateScenarioBytes, GENERATE_LIMITS, GenerateLimitError, generateScenario } from "./generate.ts";
import { CONSTANT_TOOL_CALL_ID, deterministicCallId } from "../../harness/testkit/tool-call-ids.ts";

function allCalls(scenario: Scenario): ScriptedToolCall[][] {
  return scenario.sessions.flatMap((s) => s.turns.flatMap((t) => t.steps.map((step) => step.toolCalls ?? [])));
}

describe("generateScenario", () => {
  it("gives byte-identical JSON for the same options and different JSON for another seed", () => {
    const options = { turns: 12, sessions: 2, seed: 42 };
    expect(scenarioToJson(generateScenario(options))).toBe(scenarioToJson(generateScenario(options)));
    expect(scenarioToJson(generateScenario({ ...options, seed: 43 }))).not.toBe(scenarioToJson(generateScenario(options)));
  });

  it("draws from its own seeded faker, leaving the global one alone", () => {
    globalFaker.seed(7);
    const expected = globalFaker.number.int(1e9);
    globalFaker.seed(7);
    generateScenario({ turns: 3 });
    expect(globalFaker.number.int(1e9)).toBe(expected);
  });

  it("produces valid scenarios with the requested shape", () => {
    const scenario = generateScenario({ turns: 9, sessions: 3, interleave: "random", seed: 5 });
    expect(findScenarioProblem(scenario)).toBeNull();
    expect(scenario.sessions.map((s) => s.turns.length)).toEqual([9, 9, 9]);
    expect(scenario.schedule).toHaveLength(27);
  });

  it("writes coding-agent tool calls with valid JSON arguments", () => {
    const names = new Set<string>();
    for (const batch of allCalls(generateScenario({ turns: 40, seed: 2 }))) {
      for (const call of batch) {
        names.add(call.name);
        expect(() => JSON.parse(call.arguments)).not.toThrow();
      }
    }
    expect([...names].sort()).toEqual(["patch", "read_file", "search_files", "terminal"]);
  });

  it("sizes tool outputs around the requested mean", () => {
    for (const mean of [500, 5000]) {
      const sizes = allCalls(generateScenario({ turns: 60, toolOutputBytes: mean, seed: 3 }))
        .flat()
        .filter((c) => c.name === "read_file" || c.name === "terminal")
        .map((c) => (c.result as string).length);
      const average = sizes.reduce((a, b) => a + b, 0) / sizes.length;
      expect(average).toBeGreaterThan(mean * 0.8);
      expect(average).toBeLessThan(mean * 1.25);
      expect(Math.max(...sizes)).toBeLessThanOrEqual(mean * 1.5 + 200);
    }
  });

  it("unique ids never repeat", () => {
    const ids = allCalls(generateScenario({ turns: 50, callsPerStep: [1, 4], seed: 4 })).flat().map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("deterministic ids are call_ + the first 12 hex of sha256(name:arguments:index), so identical calls share them", () => {
    const scenario = generateScenario({ turns: 40, idStyle: "deterministic", repeatChance: 0.5, callsPerStep: [1, 2], seed: 6 });
    const byId = new Map<string, Set<string>>();
    for (const batch of allCalls(scenario)) {
      batch.forEach((call, index) => {
        const hex = createHash("sha256").update(`${call.name}:${call.arguments}:${index}`).digest("hex").slice(0, 12);
        expect(call.id).toBe(`call_${hex}`);
        expect(deterministicCallId(call.name, call.arguments, index)).toBe(call.id);
        byId.set(call.id, (byId.get(call.id) ?? new Set()).add(`${call.name}:${call.arguments}`));
      });
    }
    expect([...byId.values()].every((calls) => calls.size === 1)).toBe(true);
    const ids = allCalls(scenario).flat().map((c) => c.id);
    expect(new Set(ids).size).toBeLessThan(ids.length);
  });

  it("a constant-id model names every call the same", () => {
    const ids = allCalls(generateScenario({ turns: 10, idStyle: "constant", callsPerStep: [2, 3], seed: 8 })).flat().map((c) => c.id);
    expect(new Set(ids)).toEqual(new Set([CONSTANT_TOOL_CALL_ID]));
  });

  it("per-response ids restart at call_0 in every response", () => {
    for (const batch of allCalls(generateScenario({ turns: 10, idStyle: "per-response", callsPerStep: [1, 3], seed: 9 }))) {
      expect(batch.map((c) => c.id)).toEqual(batch.map((_, i) => `call_${i}`));
    }
  });

  it("makes parallel batches when asked", () => {
    const batches = allCalls(generateScenario({ turns: 20, callsPerStep: [2, 5], seed: 10 })).filter((b) => b.length > 0);
    expect(batches.every((b) => b.length >= 2 && b.length <= 5)).toBe(true);
  });

  it("adds image parts to user messages and tool results when asked", () => {
    const scenario = generateScenario({ turns: 40, imageTurnChance: 0.3, screenshotChance: 0.2, seed: 11 });
    const turns = scenario.sessions[0]!.turns;
    const imageUsers = turns.filter((t) => Array.isArray(t.user) && t.user.some((p) => p.type === "image_url"));
    const imageResults = allCalls(scenario).flat().filter((c) => Array.isArray(c.result) && c.result.some((p) => p.type === "image_url"));
    expect(imageUsers.length).toBeGreaterThan(0);
    expect(imageResults.length).toBeGreaterThan(0);
  });

  it("plants unique canaries in the user message of their turn, and secrets in their turn", () => {
    const scenario = generateScenario({ turns: 30, sessions: 2, canariesPerSession: 5, secretsPerSession: 2, seed: 12 });
    expect(scenario.canaries).toHaveLength(10);
    expect(new Set(scenario.canaries.map((c) => c.token)).size).toBe(10);
    for (const canary of scenario.canaries) {
      const session = scenario.sessions.find((s) => s.id === canary.session)!;
      expect(JSON.stringify(session.turns[canary.turn]!.user)).toContain(canary.fact);
      const elsewhere = JSON.stringify(scenario.sessions.filter((s) => s !== session));
      expect(elsewhere).not.toContain(canary.token);
    }
    expect(scenario.secrets).toHaveLength(4);
    for (const secret of scenario.secrets) {
      const session = scenario.sessions.find((s) => s.id === secret.session)!;
      expect(JSON.stringify(session.turns[secret.turn])).toContain(secret.value);
      expect(secret.value).toMatch(/^(sk-proj-|sk-ant-api03-|AKIA|ghp_|sk_live_|xoxb-)/);
    }
  });
});

describe("generation limits", () => {
  it("refuses options past the bounds by name instead of running out of memory", () => {
    expect(() => generateScenario({ turns: 100_000_000 })).toThrow(GenerateLimitError);
    expect(() => generateScenario({ turns: 100_000_000 })).toThrow("turns per session must be at most 100000, got 100000000");
    expect(() => generateScenario({ sessions: 5000 })).toThrow("sessions must be at most 1000, got 5000");
    expect(() => generateScenario({ callsPerStep: [1, 1000] })).toThrow("calls per step must be at most 64, got 1000");
    expect(() => generateScenario({ turns: 100_000, sessions: 1000 })).toThrow(/would be an estimated [0-9.]+ GiB of JSON .*at most 256 MiB/);
    expect(GENERATE_LIMITS.scenarioBytes).toBe(MAX_INPUT_BYTES);
  });

  it.each([
    [{ turns: 30 }],
    [{ turns: 12, sessions: 3, callsPerStep: [1, 4] as [number, number], toolOutputBytes: 5000 }],
    [{ turns: 20, toolOutputBytes: 50, screenshotChance: 0.3, repeatChance: 0.5 }],
    [{ turns: 40, toolOutputBytes: 10, screenshotChance: 1, imageTurnChance: 1 }],
  ])("estimates no less than the JSON it makes, so what it makes is a file run reads (%j)", (options) => {
    expect(scenarioToJson(generateScenario(options)).length).toBeLessThanOrEqual(estimateScenarioBytes(options));
  });
});
