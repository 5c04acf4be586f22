import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { selectEngine } from "../plugins/select.ts";
import { defaultBounds } from "./bounds.ts";
import { buildScenario } from "../../scenarios/catalogue/index.ts";
import { catalogueTextTokens, scenarioTexts } from "../../scenarios/catalogue/text-tokens.ts";
import { rememberTokenCounts } from "../contract/tokens-exact.ts";
import type { Message } from "../contract/types.ts";
import { InProcessPlayer } from "../player/in-process.ts";
import { DEFAULT_LIMITS } from "../player/protocol.ts";
import type { RequestEvent } from "../trace/events.ts";
import { EngineLoadError, longestFirst, playCost, playRequest, runStage, scenarioMessages, scenarioOf, type PlannedRun } from "./run.ts";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const HOSTILE = join(REPO, "test/fixtures/plugins/hostile");
const sandbox = mkdtempSync(join(tmpdir(), "ctxbench-run-stage-"));
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

const spec = async (name: string) => (await selectEngine({ cwd: REPO, name, pluginDirs: [HOSTILE] })).spec;
const probes = (...names: string[]) => names.map((name) => ({ source: { kind: "probe" as const, name, seed: 1 } }));
const outcomeOf = (outcomes: Map<string, { ok: boolean; outcome?: string; message?: string }>, name: string) => {
  const outcome = outcomes.get(`probe:${name}#1`)!;
  return outcome.ok ? "recorded" : `${outcome.outcome}: ${outcome.message}`;
};

// The cases that wait for a bound to strike run side by side: their waits overlap instead of adding up.
describe("the run stage: runs pulled by players, bounded by the parent", () => {
  it.concurrent("stops a player whose run passes its bound and gives the next run to a fresh one", async () => {
    const stage = await runStage({ spec: await spec("never-compress"), runs: probes("usage", "compress", "identity"), bounds: defaultBounds({ players: 1, timeoutMs: 1500 }), isolate: true, sandbox, env: process.env });
    expect(outcomeOf(stage.outcomes, "usage")).toBe("recorded");
    expect(outcomeOf(stage.outcomes, "compress")).toMatch(/^timeout: probe:compress did not finish within 1500 ms/);
    expect(outcomeOf(stage.outcomes, "identity")).toBe("recorded");
    expect(stage.playersStarted).toBe(2);
    expect(stage.engine).toMatchObject({ name: "never-compress", path: "directory", bundled: false, directoryName: "never-compress", manifestName: "never-compress", language: "typescript" });
  });

  it.concurrent("ends the whole stage when --max-time strikes: the run in flight and the runs not started are timeouts", async () => {
    const stage = await runStage({ spec: await spec("never-compress"), runs: probes("compress", "identity"), bounds: defaultBounds({ players: 1, maxTimeMs: 5000 }), isolate: true, sandbox, env: process.env });
    expect(outcomeOf(stage.outcomes, "compress")).toBe("timeout: probe:compress was still playing when the run's bound (--max-time 5 s) struck; ctxbench stopped the player running it");
    expect(outcomeOf(stage.outcomes, "identity")).toBe("timeout: probe:identity: not played: the run's bound (--max-time 5 s) struck first");
  });

  it.concurrent("a bound that strikes while a fresh player loads an engine that loaded before is a timeout of the runs left, not a load error", async () => {
    // reload-hangs loads in the first player only; the player replacing the one stopped in compress never gets ready.
    const stage = await runStage({ spec: await spec("reload-hangs"), runs: probes("usage", "compress", "identity"), bounds: defaultBounds({ players: 1, timeoutMs: 1500, maxTimeMs: 6000 }), isolate: true, sandbox: mkdtempSync(join(sandbox, "reload-")), env: process.env });
    expect(outcomeOf(stage.outcomes, "usage")).toBe("recorded");
    expect(outcomeOf(stage.outcomes, "compress")).toMatch(/^timeout: probe:compress did not finish within 1500 ms/);
    expect(outcomeOf(stage.outcomes, "identity")).toBe("timeout: probe:identity: not played: the run's bound (--max-time 6 s) struck first");
    expect(stage.playersStarted).toBe(2);
  });

  it.concurrent("a fresh player failing to load an engine that loaded before costs the runs left (error), not the verdict", async () => {
    // Its load bound (6 s) strikes long before the run's: the runs left are errors saying why.
    const stage = await runStage({ spec: await spec("reload-hangs"), runs: probes("usage", "compress", "identity"), bounds: defaultBounds({ players: 1, timeoutMs: 1500, loadTimeoutMs: 6000, maxTimeMs: 120_000 }), isolate: true, sandbox: mkdtempSync(join(sandbox, "reload-")), env: process.env });
    expect(outcomeOf(stage.outcomes, "compress")).toMatch(/^timeout: probe:compress did not finish within 1500 ms/);
    expect(outcomeOf(stage.outcomes, "identity")).toMatch(/^error: probe:identity: not played: a fresh player could not load the engine again: did not finish loading the engine within 6 s/);
  });

  it("turns an engine that cannot load into one EngineLoadError", async () => {
    const error = await runStage({ spec: await spec("exit-at-import"), runs: probes("usage"), bounds: defaultBounds(), isolate: true, sandbox, env: process.env }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EngineLoadError);
    expect((error as Error).message).toBe('context engine "exit-at-import": the player loading it exited (code 0) (does the engine\'s module call process.exit when it is imported?)');
  });

  it("plays the same runs in this process with --no-isolate (for a debugger), through the same protocol", async () => {
    const stage = await runStage({ spec: await spec("throw-select"), runs: probes("usage", "identity"), bounds: defaultBounds({ players: 1 }), isolate: false, sandbox, env: process.env });
    expect([outcomeOf(stage.outcomes, "usage"), outcomeOf(stage.outcomes, "identity")]).toEqual(["recorded", "recorded"]);
  });

  it("ships a catalogue scenario built, the one the checks read, so the player does not generate it again", () => {
    const run = { source: { kind: "scenario" as const, name: "duplicate-uids", seed: 4 } };
    const scenario = scenarioOf(run);
    expect(scenario).toEqual(buildScenario("duplicate-uids", 4));
    expect(playRequest(run, scenario)).toEqual({ source: run.source, scenario });
    expect(playRequest(run, scenario, [1, 2])).toEqual({ source: run.source, scenario, textTokens: [1, 2] });
    expect(playRequest({ source: { kind: "scenario", name: "no-such-scenario", seed: 1 } }, null, [1, 2])).toEqual({ source: { kind: "scenario", name: "no-such-scenario", seed: 1 } });
    const given = { ...buildScenario("basic", 1), name: "mine" };
    expect(scenarioOf({ source: { kind: "scenario", name: "mine", seed: 1 }, scenario: given })).toBe(given);
    expect(scenarioOf({ source: { kind: "probe", name: "usage", seed: 1 } })).toBeNull();
    // Not the catalogue's: nothing is shipped and the player reports the run's error.
    expect(scenarioOf({ source: { kind: "scenario", name: "no-such-scenario", seed: 1 } })).toBeNull();
  });

  it("sends a catalogue scenario's token counts with it, and the player's provider answers with them instead of counting", async () => {
    const run = { source: { kind: "scenario" as const, name: "basic", seed: 5 } };
    const scenario = scenarioOf(run)!;
    const texts = scenarioTexts(scenario);
    const truth = catalogueTextTokens("basic", 5, scenario, mkdtempSync(join(sandbox, "counts-")))!;
    const player = new InProcessPlayer({ engine: await spec("truncate"), sandbox: mkdtempSync(join(sandbox, "counts-player-")), limits: DEFAULT_LIMITS });
    const requests = async (textTokens?: number[]) => {
      const outcome = await player.play(playRequest(run, scenario, textTokens), 60_000, "basic");
      if (!outcome.ok) throw new Error(outcome.message);
      return outcome.trace.filter((event): event is RequestEvent => event.type === "request");
    };
    try {
      expect((await player.ready(30_000)).ok).toBe(true);
      const counted = await requests();
      // Counts one over the truth: the first request (nothing the engine did has changed it yet) reads one token more per scenario text it sends.
      const [first] = await requests(truth.map((count) => count + 1));
      const known = new Set(texts);
      const sentTexts = (messages: Message[]) => messages.reduce((sum, message) => sum + Object.values(message).filter((value) => typeof value === "string" && known.has(value)).length, 0);
      expect(sentTexts(counted[0]!.messages)).toBeGreaterThan(0);
      expect(first!.promptTokens).toBe(counted[0]!.promptTokens + sentTexts(counted[0]!.messages));
      // The true counts: the same play as counting.
      expect(rememberTokenCounts(texts, truth)).toBe(true);
      expect((await requests(truth)).map((event) => [event.promptTokens, event.cacheReadTokens, event.cacheWriteTokens])).toEqual(
        counted.map((event) => [event.promptTokens, event.cacheReadTokens, event.cacheWriteTokens]),
      );
    } finally {
      rememberTokenCounts(texts, truth);
      await player.close();
    }
  });

  it("plays probes first in their order, then the scenarios that cost the most to play", () => {
    const scenario = (name: string): PlannedRun => ({ source: { kind: "scenario", name, seed: 1 } });
    const queue: PlannedRun[] = [scenario("preflight"), ...probes("usage"), scenario("huge-tool-outputs"), scenario("concurrent-sessions"), scenario("unknown"), ...probes("compress"), scenario("repeated-tool-call-ids")];
    longestFirst(queue, scenarioOf);
    expect(queue.map((run) => run.source.name)).toEqual(["usage", "compress", "concurrent-sessions", "repeated-tool-call-ids", "preflight", "huge-tool-outputs", "unknown"]);
  });

  it("weighs a scenario by the messages it makes and its characters: many calls a step weigh, and so do huge texts", () => {
    const scenario = (name: string) => scenarioOf({ source: { kind: "scenario", name, seed: 1 } })!;
    const cost = (name: string) => playCost(scenario(name));
    // parallel-tool-calls has fewer turns than compression-timeout and plays longer (301 ms against 193 ms): its steps make several calls each.
    expect(scenario("parallel-tool-calls").schedule.length).toBeLessThan(scenario("compression-timeout").schedule.length);
    expect(cost("parallel-tool-calls")).toBeGreaterThan(cost("compression-timeout"));
    // huge-tool-outputs makes 58 messages; its text weighs twice as much as they do.
    expect(scenarioMessages(scenario("huge-tool-outputs"))).toBe(58);
    expect(cost("huge-tool-outputs")).toBeGreaterThan(3 * scenarioMessages(scenario("huge-tool-outputs")));
    expect(cost("concurrent-sessions")).toBeGreaterThan(cost("repeated-tool-call-ids"));
    expect(cost("repeated-tool-call-ids")).toBeGreaterThan(cost("parallel-tool-calls"));
    expect(playCost(null)).toBe(0);
  });
});
