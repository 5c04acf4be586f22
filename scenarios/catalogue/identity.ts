import type { Message } from "../../harness/contract/types.ts";
import type { ScheduleStep } from "../format.ts";
import { appendEvent, insertEventAfterTurn } from "../generate/schedule.ts";
import { sessionMessages } from "../transcript.ts";
import { compactionThreshold, messagesThroughTurn, playAll, ScenarioKit, truncateSession, userMessageIndex, type CatalogueEntry } from "./kit.ts";
import { DEFAULT_CONTEXT_LENGTH } from "../generate/generate.ts";
import { sessionTokensRough } from "../transcript.ts";

/** Scenarios about message identity: upgrades, merges, copies, preflight, duplicates, rewrites. */
export const identityEntries: CatalogueEntry[] = [
  {
    name: "schema-upgrade",
    description:
      "Play starts from a schema v30 store with legacy rows (no uids) that the v31 upgrade backfills in small slices over several opens; an older build keeps inserting rows mid-session.",
    rules: ["UID-8", "UID-2", "UID-1"],
    build(seed) {
      const kit = new ScenarioKit(this, seed);
      const history = kit.session("legacy-history", { turns: 14, toolOutputBytes: 1500, canariesPerSession: 0, secretsPerSession: 0 });
      const archived = kit.session("legacy-archived", { turns: 6, toolOutputBytes: 800, canariesPerSession: 0, secretsPerSession: 0 });
      const s1 = kit.session("s1", { turns: 36, toolOutputBytes: 3400 });
      const legacyRows = sessionMessages(history.session);
      const archivedRows = sessionMessages(archived.session);
      const totalRows = legacyRows.length + archivedRows.length;
      const schedule = playAll(s1);
      insertEventAfterTurn(schedule, "s1", 4, { type: "legacy-write", messages: olderBuildExchange(kit, "Quick question from the old desktop app: is the build green?") });
      insertEventAfterTurn(schedule, "s1", 5, { type: "restart" });
      insertEventAfterTurn(schedule, "s1", 12, { type: "legacy-write", messages: olderBuildExchange(kit, "Old client again: did the migration finish?") });
      insertEventAfterTurn(schedule, "s1", 13, { type: "restart" });
      insertEventAfterTurn(schedule, "s1", 20, { type: "restart" });
      return kit.finish([s1], schedule, {
        legacyStore: {
          sessions: [
            { id: "s1", messages: legacyRows },
            { id: "legacy-archived", messages: archivedRows },
          ],
          // Small slices: the opens before play leave rows without a uid, later restarts finish the job.
          backfillChunk: Math.max(2, Math.ceil(totalRows / 5)),
          backfillBudgetMs: 0,
          opens: 2,
        },
      });
    },
  },
  {
    name: "merges",
    description:
      "Interrupted and answerless turns leave consecutive user messages that the host merges (live and on restore); per-response tool-call ids recur across the merged turns.",
    rules: ["UID-5", "UID-2", "UID-3", "TCU-1"],
    build(seed) {
      const kit = new ScenarioKit(this, seed);
      const s1 = kit.session("s1", { turns: 40, toolOutputBytes: 3200, callsPerStep: [1, 2] }, "per-response");
      for (const turn of [3, 9, 10, 17, 25]) s1.session.turns[turn]!.steps = [{ content: null, fault: { kind: "interrupted" } }];
      s1.session.turns[30]!.steps = [];
      const schedule = playAll(s1);
      insertEventAfterTurn(schedule, "s1", 10, { type: "restart" });
      insertEventAfterTurn(schedule, "s1", 25, { type: "restart" });
      insertEventAfterTurn(schedule, "s1", 31, { type: "export-import", newSession: "s1-imported" });
      insertEventAfterTurn(schedule, "s1", 31, { type: "restart" });
      return kit.finish([s1], schedule);
    },
  },
  {
    name: "copies",
    description: "Every host copy path: a branch, a rewind, an export/import round trip and a rotation into a child session, with play continuing on each copy.",
    rules: ["UID-3", "UID-6", "TCU-2", "UID-1"],
    build(seed) {
      const kit = new ScenarioKit(this, seed);
      const s1 = kit.session("s1", { turns: 22, toolOutputBytes: 2600 });
      const branch = kit.session("s1-branch", { turns: 6, toolOutputBytes: 1200 });
      const imported = kit.session("s1-imported", { turns: 8, toolOutputBytes: 2400 });
      const rotated = kit.session("s1-rotated", { turns: 6, toolOutputBytes: 1200 });
      const schedule: ScheduleStep[] = playAll(s1);
      insertEventAfterTurn(schedule, "s1", 9, { type: "branch", newSession: "s1-branch" });
      insertEventAfterTurn(schedule, "s1", 9, { type: "rewind", keepMessages: messagesThroughTurn(s1, 7) });
      schedule.push(...playAll(branch));
      appendEvent(schedule, "s1", { type: "compress" });
      appendEvent(schedule, "s1", { type: "export-import", newSession: "s1-imported" });
      schedule.push(...playAll(imported));
      appendEvent(schedule, "s1-imported", { type: "rotate", newSession: "s1-rotated" });
      schedule.push(...playAll(rotated));
      appendEvent(schedule, "s1-rotated", { type: "restart" });
      return kit.finish([s1, branch, imported, rotated], schedule);
    },
  },
  {
    name: "preflight",
    description: "A session just under the threshold receives a pasted log so large that the preflight check compacts before the new user message has a uid.",
    rules: ["CMP-9", "UID-2", "CMP-5"],
    build(seed) {
      const kit = new ScenarioKit(this, seed);
      const threshold = compactionThreshold(DEFAULT_CONTEXT_LENGTH);
      const full = kit.session("s1", { turns: 60, toolOutputBytes: 2000 });
      let keep = full.session.turns.length;
      while (keep > 1 && sessionTokensRough(truncateSession(full, keep).session) > threshold * 0.85) keep--;
      const s1 = truncateSession(full, keep);
      const before = sessionTokensRough(s1.session);
      const pastedChars = Math.ceil((threshold * 1.2 - before) * 4);
      const log = Array.from({ length: Math.ceil(pastedChars / 80) }, (_, i) => `[${String(i).padStart(6, "0")}] ${kit.faker.hacker.phrase()}`.padEnd(79, ".")).join("\n");
      s1.session.turns.push({
        user: `The nightly job died; here is the whole log, what went wrong?\n${log.slice(0, pastedChars)}`,
        steps: [{ content: "The job ran out of memory while compacting the index; raise the heap limit or split the batch." }],
      });
      const tail = kit.session("s1-tail", { turns: 4, toolOutputBytes: 1200, canariesPerSession: 0, secretsPerSession: 0 });
      s1.session.turns.push(...tail.session.turns);
      return kit.finish([s1], playAll(s1));
    },
  },
  {
    name: "duplicate-uids",
    description: "The host re-appends edited copies of active rows next to them, so two active rows share one uid, before and across compaction and restore.",
    rules: ["UID-7", "UID-4", "UID-1"],
    build(seed) {
      const kit = new ScenarioKit(this, seed);
      const s1 = kit.session("s1", { turns: 40, toolOutputBytes: 3400 });
      const schedule = playAll(s1);
      insertEventAfterTurn(schedule, "s1", 3, { type: "duplicate-row", messageIndex: userMessageIndex(s1, 2), content: "(edited) Please look at the failing test first." });
      insertEventAfterTurn(schedule, "s1", 6, { type: "duplicate-row", messageIndex: messagesThroughTurn(s1, 5) - 1, content: "(edited) Done, and the tests pass now." });
      insertEventAfterTurn(schedule, "s1", 7, { type: "restart" });
      return kit.finish([s1], schedule);
    },
  },
  {
    name: "content-rewrite",
    description: "Rows are rewritten in place under their uid (a persist override, a sanitizer rewrite of a tool output) before compaction sees them.",
    rules: ["UID-4", "UID-1"],
    build(seed) {
      const kit = new ScenarioKit(this, seed);
      const s1 = kit.session("s1", { turns: 40, toolOutputBytes: 3400 });
      const schedule = playAll(s1);
      insertEventAfterTurn(schedule, "s1", 2, { type: "content-rewrite", messageIndex: userMessageIndex(s1, 1), content: "Rewritten request: fix the flaky test in the auth module." });
      insertEventAfterTurn(schedule, "s1", 4, { type: "content-rewrite", messageIndex: userMessageIndex(s1, 3) + 2, content: "[tool output redacted by the sanitizer]" });
      insertEventAfterTurn(schedule, "s1", 4, { type: "compress" });
      insertEventAfterTurn(schedule, "s1", 8, { type: "content-rewrite", messageIndex: 1, content: "Rewritten after a compaction: whichever row now sits second." });
      return kit.finish([s1], schedule);
    },
  },
];

/** Two rows an older build (no identity columns) appends: a question and its answer. */
function olderBuildExchange(kit: ScenarioKit, question: string): Message[] {
  return [
    { role: "user", content: question },
    { role: "assistant", content: `Yes: ${kit.faker.hacker.phrase()}` },
  ];
}
