import { afterEach } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { TraceEvent } from "../trace/events.ts";
import type { Scenario, ScenarioTurn } from "../../scenarios/format.ts";

/** Helpers for the host's tests: real temp directories, a small configurable engine, scenario builders. */
export function sandbox(): { home: string; cleanup: () => void } {
  const home = mkdtempSync(join(tmpdir(), "ctxbench-host-"));
  return { home, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

/** `home()` gives a fresh sandbox directory; each is removed after the test that asked for it. */
export function sandboxesPerTest(): () => string {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });
  return () => {
    const box = sandbox();
    cleanups.push(box.cleanup);
    return box.home;
  };
}

export function fixtureScenario(name = "two-sessions"): Scenario {
  const path = fileURLToPath(new URL(`./fixtures/${name}.json`, import.meta.url));
  return JSON.parse(readFileSync(path, "utf8")) as Scenario;
}

export function turn(user: string, ...replies: string[]): ScenarioTurn {
  return { user, steps: replies.map((content) => ({ content })) };
}

/** A one-session scenario; `schedule` defaults to every turn in order. */
export function scenario(turns: ScenarioTurn[], extra: Partial<Scenario> = {}): Scenario {
  return {
    formatVersion: 1,
    name: "host-test",
    description: "built by a host test",
    seed: 11,
    rules: [],
    model: "sim-model",
    context_length: 65536,
    sessions: [{ id: "s1", systemPrompt: "You are a test assistant.", turns }],
    schedule: turns.map((_, index) => ({ kind: "turn" as const, session: "s1", turn: index })),
    canaries: [],
    secrets: [],
    ...extra,
  };
}

/** Events of one type from a trace, typed. */
export function eventsOf<T extends TraceEvent["type"]>(trace: readonly TraceEvent[], type: T): Array<Extract<TraceEvent, { type: T }>> {
  return trace.filter((event): event is Extract<TraceEvent, { type: T }> => event.type === type);
}

/** Hooks called, in order, optionally for one session. */
export function hookOrder(trace: readonly TraceEvent[], session?: string): string[] {
  return eventsOf(trace, "engine-call")
    .filter((event) => session === undefined || event.session === session)
    .map((event) => event.hook);
}
