import { CONSTANT_TOOL_CALL_ID } from "../../harness/testkit/tool-call-ids.ts";
import { interleave, appendEvent, insertEventAfterTurn } from "../generate/schedule.ts";
import type { CatalogueEntry } from "./kit.ts";
import { ScenarioKit, playAll } from "./kit.ts";

/** Everyday traffic shapes: one session, id styles, parallel batches, concurrency, size extremes. */
export const trafficEntries: CatalogueEntry[] = [
  {
    name: "basic",
    description: "One coding session with file reads, commands, searches, edits and a few images; enough traffic for compaction to fire.",
    rules: ["ABC-2", "ABC-5", "ABC-6", "CMP-1", "CMP-2", "CMP-3", "CMP-4", "CMP-5", "LIFE-1", "UID-1", "WIRE-1", "WIRE-2", "SEL-1", "CACHE-1", "OTC-1"],
    build(seed) {
      const kit = new ScenarioKit(this, seed);
      const s1 = kit.session("s1", { turns: 52, toolOutputBytes: 3600, screenshotChance: 0.04, imageTurnChance: 0.06 });
      const schedule = playAll(s1);
      appendEvent(schedule, "s1", { type: "end" });
      return kit.finish([s1], schedule);
    },
  },
  {
    name: "repeated-tool-call-ids",
    description:
      "Three sessions whose models repeat tool-call ids: deterministic call_<12hex> ids for identical calls, one constant id inside parallel batches, and per-response call_0/call_1 ids reused every turn.",
    rules: ["TCU-1", "TCU-2", "TCU-3", "CMP-2"],
    build(seed) {
      const kit = new ScenarioKit(this, seed);
      const deterministic = kit.session("s1", { turns: 40, toolOutputBytes: 3400, repeatChance: 0.35 }, "deterministic");
      const constant = kit.session("s2", { turns: 40, toolOutputBytes: 2100, callsPerStep: [1, 3] }, "constant");
      const perResponse = kit.session("s3", { turns: 40, toolOutputBytes: 2100, callsPerStep: [1, 3] }, "per-response");
      // Make the guarantees independent of the seed: an identical call in two turns (same
      // deterministic id) and a constant-id response naming its id twice.
      const first = deterministic.session.turns[1]!.steps[0]!.toolCalls![0]!;
      const later = deterministic.session.turns[7]!.steps[0]!.toolCalls!;
      later[0] = { ...first, result: later[0]!.result };
      const batch = constant.session.turns[0]!.steps[0]!.toolCalls!;
      if (batch.length < 2) batch.push({ ...batch[0]!, id: CONSTANT_TOOL_CALL_ID, arguments: JSON.stringify({ command: "git status --short" }), name: "terminal" });
      const sessions = [deterministic, constant, perResponse];
      return kit.finish(sessions, interleave(kit.faker, sessions.map((b) => b.session), "round-robin"));
    },
  },
  {
    name: "parallel-tool-calls",
    description: "Responses that issue batches of two to six tool calls at once; results arrive in call order.",
    rules: ["CMP-2", "TCU-1", "TCU-2", "UID-1"],
    build(seed) {
      const kit = new ScenarioKit(this, seed);
      const s1 = kit.session("s1", { turns: 36, toolOutputBytes: 1400, callsPerStep: [2, 6], toolStepsPerTurn: [1, 2] });
      return kit.finish([s1], playAll(s1));
    },
  },
  {
    name: "concurrent-sessions",
    description: "Five sessions interleaved at random on one engine instance, each with its own canaries and secrets; two compaction passes may run at once.",
    rules: ["THR-1", "THR-2", "THR-3", "LIFE-1", "UID-1"],
    build(seed) {
      const kit = new ScenarioKit(this, seed);
      const builds = ["s1", "s2", "s3", "s4", "s5"].map((id) => kit.session(id, { turns: 38, toolOutputBytes: 4200, canariesPerSession: 3, secretsPerSession: 1 }));
      const schedule = interleave(kit.faker, builds.map((b) => b.session), "random");
      for (const b of builds) appendEvent(schedule, b.session.id, { type: "end" });
      return kit.finish(builds, schedule, { host: { poolSize: 2 } });
    },
  },
  {
    name: "huge-tool-outputs",
    description: "Tool outputs of tens of kilobytes, one larger than the whole compaction threshold on its own.",
    rules: ["CMP-2", "CMP-4", "CMP-5"],
    build(seed) {
      const kit = new ScenarioKit(this, seed);
      const s1 = kit.session("s1", { turns: 12, toolOutputBytes: 40_000, toolStepsPerTurn: [1, 2] });
      const giant = s1.session.turns[6]!.steps[0]!.toolCalls![0]!;
      const text = typeof giant.result === "string" ? giant.result : JSON.stringify(giant.result);
      giant.result = text.repeat(Math.ceil(220_000 / Math.max(1, text.length))).slice(0, 220_000);
      return kit.finish([s1], playAll(s1));
    },
  },
  {
    name: "long-session",
    description: "Thousands of short coding turns in one session: many compactions, restarts along the way, a reset and an end.",
    rules: ["LIFE-1", "LIFE-2", "ABC-5", "CMP-4", "CMP-5", "UID-1", "CACHE-2"],
    build(seed) {
      const kit = new ScenarioKit(this, seed);
      const s1 = kit.session("s1", { turns: 2500, toolOutputBytes: 700, toolStepsPerTurn: [1, 1], canariesPerSession: 12, secretsPerSession: 3 });
      const schedule = playAll(s1);
      for (const turn of [499, 999, 1499, 1999]) insertEventAfterTurn(schedule, "s1", turn, { type: "restart" });
      insertEventAfterTurn(schedule, "s1", 1249, { type: "reset" });
      appendEvent(schedule, "s1", { type: "end" });
      return kit.finish([s1], schedule);
    },
  },
];
