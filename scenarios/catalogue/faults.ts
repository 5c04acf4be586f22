import type { AssistantStep } from "../format.ts";
import { appendEvent, insertEventAfterTurn } from "../generate/schedule.ts";
import { CANARY_TOPICS } from "../generate/planting.ts";
import { appendToUser } from "../generate/generate.ts";
import { canarySentence } from "../generate/planting.ts";
import { playAll, ScenarioKit, type CatalogueEntry } from "./kit.ts";

/** Scenarios where something goes wrong or the user steers: timeouts, provider faults, focus. */
export const faultEntries: CatalogueEntry[] = [
  {
    name: "compression-timeout",
    description: "Passes are timed out by the host (timeout-next-compaction: the signal aborts and the result is dropped, however fast the engine was); the discarded pass must leave no trace, and later passes still work.",
    rules: ["THR-3", "THR-4", "CMP-4", "LIFE-1"],
    build(seed) {
      const kit = new ScenarioKit(this, seed);
      const s1 = kit.session("s1", { turns: 50, toolOutputBytes: 3400 });
      const schedule = playAll(s1);
      // The first automatic pass times out; later a manual pass times out and the next one commits.
      insertEventAfterTurn(schedule, "s1", -1, { type: "timeout-next-compaction" });
      insertEventAfterTurn(schedule, "s1", 44, { type: "timeout-next-compaction" });
      insertEventAfterTurn(schedule, "s1", 44, { type: "compress" });
      insertEventAfterTurn(schedule, "s1", 45, { type: "compress" });
      appendEvent(schedule, "s1", { type: "end" });
      // The host's own timeout is left where no real pass reaches it, so the outcome of every pass
      // is the schedule's, not the machine's speed (a 50 ms bound timed out every pass of a slow run).
      return kit.finish([s1], schedule, { host: { compactionTimeoutMs: 5000 } });
    },
  },
  {
    name: "provider-faults",
    description: "Every provider fault: transient errors retried, slow responses, a content-policy block, a terminal failure, a context overflow and an interrupted turn.",
    rules: ["OTC-1", "OTC-3", "OTC-5", "SEL-5", "LIFE-1"],
    build(seed) {
      const kit = new ScenarioKit(this, seed);
      const s1 = kit.session("s1", { turns: 40, toolOutputBytes: 3400 });
      const turns = s1.session.turns;
      const firstStep = (t: number): AssistantStep => turns[t]!.steps[0]!;
      firstStep(2).fault = { kind: "transient", failures: 2 };
      firstStep(5).fault = { kind: "slow", delayMs: 250 };
      turns[8]!.steps = [{ content: null, fault: { kind: "content-policy" } }];
      turns[12]!.steps = [turns[12]!.steps[0]!, { content: null, fault: { kind: "terminal" } }];
      turns[16]!.steps.unshift({ content: null, fault: { kind: "context-overflow" } });
      turns[20]!.steps = [turns[20]!.steps[0]!, { content: null, fault: { kind: "interrupted" } }];
      firstStep(30).fault = { kind: "transient", failures: 1 };
      return kit.finish([s1], playAll(s1));
    },
  },
  {
    name: "focus-topic",
    description: "Canaries on a few topics, then manual /compress with a focus topic twice; a focus-aware engine should keep more of the focused topic's facts.",
    rules: ["CMP-6", "CMP-7"],
    build(seed) {
      const kit = new ScenarioKit(this, seed);
      const s1 = kit.session("s1", { turns: 44, toolOutputBytes: 3400, canariesPerSession: 0 });
      const topics = [CANARY_TOPICS[1], CANARY_TOPICS[0], CANARY_TOPICS[2]] as const;
      // Four facts per topic, spread over the first 36 turns.
      for (let i = 0; i < 12; i++) {
        const turn = 1 + i * 3;
        const canary = kit.mint.canary("s1", turn, topics[i % 3]!);
        appendToUser(s1.session.turns[turn]!, canarySentence(canary));
        s1.canaries.push(canary);
      }
      const schedule = playAll(s1);
      insertEventAfterTurn(schedule, "s1", 24, { type: "compress", focus_topic: topics[0] });
      insertEventAfterTurn(schedule, "s1", 40, { type: "compress", focus_topic: topics[1] });
      return kit.finish([s1], schedule);
    },
  },
];
