import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { HostEvent, Scenario, ScenarioSession } from "../format.ts";
import { scenarioToJson } from "../io.ts";
import { sessionMessages, sessionTokensRough, turnMessages } from "../transcript.ts";
import { pinnedPins } from "./pins.ts";
import { buildScenario, listScenarios, UnknownScenarioError } from "./index.ts";

const REQUIRED = [
  "basic", "repeated-tool-call-ids", "parallel-tool-calls", "concurrent-sessions", "compression-timeout", "schema-upgrade",
  "merges", "copies", "preflight", "duplicate-uids", "content-rewrite", "provider-faults", "focus-topic", "huge-tool-outputs", "long-session",
];

const built = new Map<string, Scenario>();
function scenario(name: string): Scenario {
  let s = built.get(name);
  if (!s) built.set(name, (s = buildScenario(name)));
  return s;
}
const threshold = (s: Scenario) => s.context_length * 0.75;
const session = (s: Scenario, id: string): ScenarioSession => s.sessions.find((x) => x.id === id)!;
const events = (s: Scenario, type?: HostEvent["type"]) =>
  s.schedule.flatMap((step, index) => (step.kind === "event" && (!type || step.event.type === type) ? [{ index, session: step.session, event: step.event }] : []));
/** The last turn of `sessionId` played before schedule position `index` (-1 if none). */
const turnBefore = (s: Scenario, index: number, sessionId: string) =>
  s.schedule.slice(0, index).reduce((last, step) => (step.kind === "turn" && step.session === sessionId ? step.turn : last), -1);
/** The session's message list once `turn` has completed, nothing compacted. */
const messagesThrough = (sess: ScenarioSession, turn: number) => sessionMessages({ ...sess, turns: sess.turns.slice(0, turn + 1) });

describe("the scenario catalogue", () => {
  it("lists every required scenario with a description and the rule IDs it exercises", () => {
    const infos = listScenarios();
    expect(infos.map((i) => i.name)).toEqual(expect.arrayContaining(REQUIRED));
    for (const info of infos) {
      expect(info.description.length).toBeGreaterThan(20);
      expect(info.rules.length).toBeGreaterThan(0);
      for (const rule of info.rules) expect(rule).toMatch(/^(REG|ABC|CMP|SEL|OTC|UID|TCU|WIRE|TOOL|LIFE|THR|CACHE)-\d+$/);
      expect(scenario(info.name).rules).toEqual(info.rules);
    }
  });

  it("builds byte-identical JSON per name and seed: the pinned sha256 values hold", () => {
    const pins = Object.fromEntries(listScenarios().map(({ name }) => [name, createHash("sha256").update(scenarioToJson(scenario(name))).digest("hex")]));
    expect(pins).toEqual(pinnedPins());
  });

  it("builds a different scenario for a different seed", () => {
    for (const name of REQUIRED) {
      const other = createHash("sha256").update(scenarioToJson(buildScenario(name, 2))).digest("hex");
      expect(other, name).not.toBe(pinnedPins()[name]);
    }
  });

  it("refuses an unknown name", () => {
    expect(() => buildScenario("no-such-scenario")).toThrow(UnknownScenarioError);
  });

  it("gives every scenario enough traffic that compaction fires", () => {
    const manual = new Set(["copies"]);
    for (const name of REQUIRED.filter((n) => !manual.has(n))) {
      const s = scenario(name);
      const legacyTokens = (s.legacyStore?.sessions[0]?.messages ?? []).reduce((sum, m) => sum + JSON.stringify(m).length / 4, 0);
      const largest = Math.max(...s.sessions.map(sessionTokensRough)) + legacyTokens;
      expect(largest, name).toBeGreaterThan(threshold(s));
    }
    expect(events(scenario("copies"), "compress").length + events(scenario("copies"), "rotate").length).toBeGreaterThanOrEqual(2);
  });

  it("basic: reads, commands, searches, edits, images, canaries, secrets and an end", () => {
    const s = scenario("basic");
    const json = JSON.stringify(s.sessions);
    for (const tool of ["read_file", "terminal", "search_files", "patch"]) expect(json).toContain(`"name":"${tool}"`);
    expect(json).toContain('"type":"image_url"');
    expect(s.canaries.length).toBeGreaterThan(0);
    expect(s.secrets.length).toBeGreaterThan(0);
    expect(s.schedule.at(-1)).toMatchObject({ kind: "event", event: { type: "end" } });
  });

  it("repeated-tool-call-ids: an id named in two different turns, and one repeated inside a single response", () => {
    const s = scenario("repeated-tool-call-ids");
    let acrossTurns = false;
    let withinResponse = false;
    let deterministicRepeat = false;
    for (const sess of s.sessions) {
      const turnsById = new Map<string, Set<number>>();
      sess.turns.forEach((turn, t) => {
        for (const step of turn.steps) {
          const ids = (step.toolCalls ?? []).map((c) => c.id);
          if (new Set(ids).size < ids.length) withinResponse = true;
          for (const id of ids) turnsById.set(id, (turnsById.get(id) ?? new Set()).add(t));
        }
      });
      for (const [id, turns] of turnsById) {
        if (turns.size < 2) continue;
        acrossTurns = true;
        if (/^call_[0-9a-f]{12}$/.test(id)) deterministicRepeat = true;
      }
    }
    expect(acrossTurns).toBe(true);
    expect(withinResponse).toBe(true);
    expect(deterministicRepeat).toBe(true);
  });

  it("parallel-tool-calls: most turns issue a batch of calls in one response", () => {
    const turns = scenario("parallel-tool-calls").sessions[0]!.turns;
    const batched = turns.filter((t) => t.steps.some((step) => (step.toolCalls?.length ?? 0) >= 2));
    expect(batched.length).toBe(turns.length);
    expect(Math.max(...turns.flatMap((t) => t.steps.map((step) => step.toolCalls?.length ?? 0)))).toBeGreaterThanOrEqual(5);
  });

  it("concurrent-sessions: at least four sessions interleaved, each with its own canaries", () => {
    const s = scenario("concurrent-sessions");
    expect(s.sessions.length).toBeGreaterThanOrEqual(4);
    const order = s.schedule.filter((step) => step.kind === "turn").map((step) => step.session);
    for (const sess of s.sessions) {
      const first = order.indexOf(sess.id);
      const last = order.lastIndexOf(sess.id);
      expect(order.slice(first, last + 1).some((id) => id !== sess.id), sess.id).toBe(true);
      const own = s.canaries.filter((c) => c.session === sess.id);
      expect(own.length).toBeGreaterThan(0);
      const others = JSON.stringify(s.sessions.filter((x) => x !== sess));
      for (const canary of own) expect(others).not.toContain(canary.token);
    }
    const switches = order.filter((id, i) => i > 0 && id !== order[i - 1]).length;
    expect(switches).toBeGreaterThan(order.length / 2);
  });

  it("compression-timeout: passes timed out by the schedule, the host's real-time timeout out of their reach", () => {
    const s = scenario("compression-timeout");
    expect(s.host?.compactionTimeoutMs).toBeGreaterThanOrEqual(1000);
    const timeouts = events(s, "timeout-next-compaction");
    expect(timeouts.length).toBeGreaterThanOrEqual(2);
    // The second one is followed at once by a manual pass, so a pass certainly times out.
    expect(s.schedule[timeouts[1]!.index + 1]).toMatchObject({ kind: "event", event: { type: "compress" } });
    expect(events(s, "compress").length).toBeGreaterThanOrEqual(2);
  });

  it("schema-upgrade: a v30 store whose backfill outlasts the opens before play, and older-build inserts", () => {
    const s = scenario("schema-upgrade");
    const legacy = s.legacyStore!;
    const rows = legacy.sessions.flatMap((x) => x.messages);
    expect(rows.every((m) => !("message_uid" in m))).toBe(true);
    expect(legacy.sessions.map((x) => x.id)).toContain(s.sessions[0]!.id);
    expect(rows.length).toBeGreaterThan(legacy.backfillChunk * legacy.opens);
    const writes = events(s, "legacy-write");
    expect(writes.length).toBeGreaterThanOrEqual(2);
    const restarts = events(s, "restart");
    expect(restarts.some((r) => r.index > writes[0]!.index)).toBe(true);
    // Each restart is another open, so the backfill advances during play.
    expect(restarts.length).toBeGreaterThanOrEqual(2);
  });

  it("merges: answerless turns leave consecutive user messages, with restores after them", () => {
    const s = scenario("merges");
    const sess = s.sessions[0]!;
    const answerless = sess.turns.flatMap((t, i) => (turnMessages(t).length === 1 ? [i] : []));
    expect(answerless.length).toBeGreaterThanOrEqual(3);
    expect(answerless.some((t, i) => answerless[i + 1] === t + 1)).toBe(true);
    const restarts = events(s, "restart").map((r) => turnBefore(s, r.index, sess.id));
    expect(restarts.some((t) => answerless.includes(t))).toBe(true);
    const ids = sess.turns.flatMap((t, i) => t.steps.flatMap((step) => (step.toolCalls ?? []).map((c) => `${c.id}@${i}`)));
    const turnsOfCall0 = new Set(ids.filter((x) => x.startsWith("call_0@")));
    expect(turnsOfCall0.size).toBeGreaterThan(2);
    expect(events(s, "export-import")).toHaveLength(1);
  });

  it("copies: branch, rewind, export/import and rotation, with play continuing on each copy", () => {
    const s = scenario("copies");
    for (const type of ["branch", "rewind", "export-import", "rotate"] as const) expect(events(s, type).length, type).toBeGreaterThan(0);
    for (const created of events(s).filter((e) => "newSession" in e.event)) {
      const id = (created.event as { newSession: string }).newSession;
      const firstTurn = s.schedule.findIndex((step) => step.kind === "turn" && step.session === id);
      expect(firstTurn, id).toBeGreaterThan(created.index);
    }
    const rewind = events(s, "rewind")[0]!;
    const rows = messagesThrough(session(s, rewind.session), turnBefore(s, rewind.index, rewind.session)).length;
    const keep = (rewind.event as { keepMessages: number }).keepMessages;
    expect(keep).toBeGreaterThan(1);
    expect(keep).toBeLessThan(rows);
  });

  it("preflight: a user message that alone carries the session over the threshold", () => {
    const s = scenario("preflight");
    const sess = s.sessions[0]!;
    const big = sess.turns.findIndex((t) => typeof t.user === "string" && t.user.length > 20_000);
    expect(big).toBeGreaterThan(0);
    const before = sessionTokensRough({ ...sess, turns: sess.turns.slice(0, big) });
    const withUser = before + (sess.turns[big]!.user as string).length / 4;
    expect(before).toBeLessThan(threshold(s));
    expect(withUser).toBeGreaterThan(threshold(s));
    expect(sess.turns.length).toBeGreaterThan(big + 1);
  });

  it("duplicate-uids: edited copies of plain user/assistant rows that exist when the event plays", () => {
    const s = scenario("duplicate-uids");
    const duplicates = events(s, "duplicate-row");
    expect(duplicates.length).toBeGreaterThanOrEqual(2);
    for (const d of duplicates) {
      const rows = messagesThrough(session(s, d.session), turnBefore(s, d.index, d.session));
      const row = rows[(d.event as { messageIndex: number }).messageIndex]!;
      expect(row).toBeDefined();
      expect(["user", "assistant"]).toContain(row.role);
      expect(row.tool_calls).toBeUndefined();
    }
    expect(events(s, "restart").length).toBeGreaterThan(0);
  });

  it("content-rewrite: rewrites under existing rows, one of a tool output, before a compaction", () => {
    const s = scenario("content-rewrite");
    const rewrites = events(s, "content-rewrite");
    expect(rewrites.length).toBeGreaterThanOrEqual(2);
    const roles = rewrites.slice(0, 2).map((r) => messagesThrough(session(s, r.session), turnBefore(s, r.index, r.session))[(r.event as { messageIndex: number }).messageIndex]!.role);
    expect(roles).toEqual(["user", "tool"]);
    expect(events(s, "compress")[0]!.index).toBeGreaterThan(rewrites[1]!.index);
  });

  it("provider-faults: every fault kind", () => {
    const kinds = new Set(scenario("provider-faults").sessions[0]!.turns.flatMap((t) => t.steps.flatMap((step) => (step.fault ? [step.fault.kind] : []))));
    expect([...kinds].sort()).toEqual(["content-policy", "context-overflow", "interrupted", "slow", "terminal", "transient"]);
  });

  it("focus-topic: each focused compaction has several facts of its topic planted before it", () => {
    const s = scenario("focus-topic");
    const compresses = events(s, "compress").filter((e) => (e.event as { focus_topic?: string }).focus_topic);
    expect(compresses.length).toBeGreaterThanOrEqual(2);
    for (const c of compresses) {
      const topic = (c.event as { focus_topic: string }).focus_topic;
      const before = turnBefore(s, c.index, c.session);
      expect(s.canaries.filter((k) => k.topic === topic && k.turn <= before).length).toBeGreaterThanOrEqual(3);
      expect(s.canaries.filter((k) => k.topic !== topic && k.turn <= before).length).toBeGreaterThanOrEqual(3);
    }
  });

  it("huge-tool-outputs: one tool output larger than the whole threshold", () => {
    const s = scenario("huge-tool-outputs");
    const sizes = s.sessions[0]!.turns.flatMap((t) => t.steps.flatMap((step) => (step.toolCalls ?? []).map((c) => JSON.stringify(c.result).length)));
    expect(Math.max(...sizes)).toBeGreaterThan(threshold(s) * 4);
    expect(sizes.filter((n) => n > 20_000).length).toBeGreaterThan(5);
  });

  it("long-session: thousands of turns, enough for several compactions, with restarts, a reset and an end", () => {
    const s = scenario("long-session");
    const sess = s.sessions[0]!;
    expect(sess.turns.length).toBeGreaterThanOrEqual(2000);
    expect(sessionTokensRough(sess)).toBeGreaterThan(threshold(s) * 8);
    expect(events(s, "restart").length).toBeGreaterThanOrEqual(3);
    expect(events(s, "reset")).toHaveLength(1);
    expect(s.schedule.at(-1)).toMatchObject({ event: { type: "end" } });
  });
});
