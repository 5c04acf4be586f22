import type { Faker } from "@faker-js/faker";
import type { HostEvent, ScenarioSession, ScheduleStep } from "../format.ts";

/**
 * - `sequential`: each session plays all its turns before the next starts;
 * - `round-robin`: one turn of each session in turn;
 * - `random`: a seeded random session with turns left, each session's own order kept.
 */
export type InterleaveMode = "sequential" | "round-robin" | "random";
export const INTERLEAVE_MODES: readonly InterleaveMode[] = ["sequential", "round-robin", "random"];

export function interleave(faker: Faker, sessions: readonly ScenarioSession[], mode: InterleaveMode): ScheduleStep[] {
  const schedule: ScheduleStep[] = [];
  const next = sessions.map(() => 0);
  const total = sessions.reduce((sum, s) => sum + s.turns.length, 0);
  let cursor = 0;
  while (schedule.length < total) {
    let index: number;
    if (mode === "sequential") index = next.findIndex((n, i) => n < sessions[i]!.turns.length);
    else if (mode === "round-robin") {
      while (next[cursor % sessions.length]! >= sessions[cursor % sessions.length]!.turns.length) cursor++;
      index = cursor++ % sessions.length;
    } else {
      const open = next.flatMap((n, i) => (n < sessions[i]!.turns.length ? [i] : []));
      index = faker.helpers.arrayElement(open);
    }
    schedule.push({ kind: "turn", session: sessions[index]!.id, turn: next[index]! });
    next[index]!++;
  }
  return schedule;
}

/** Insert a host event right after the given turn of a session plays (or first, for turn -1). */
export function insertEventAfterTurn(schedule: ScheduleStep[], session: string, turn: number, event: HostEvent): void {
  const at = turn < 0 ? schedule.findIndex((s) => s.session === session) : schedule.findIndex((s) => s.kind === "turn" && s.session === session && s.turn === turn);
  if (at < 0 && turn >= 0) throw new Error(`no turn ${turn} of session ${session} in the schedule`);
  let position = turn < 0 ? Math.max(at, 0) : at + 1;
  // Keep events placed after the same turn in the order they were added.
  while (turn >= 0 && position < schedule.length && schedule[position]!.kind === "event" && schedule[position]!.session === session) position++;
  schedule.splice(position, 0, { kind: "event", session, event });
}

/** Append an event at the end of the schedule. */
export function appendEvent(schedule: ScheduleStep[], session: string, event: HostEvent): void {
  schedule.push({ kind: "event", session, event });
}
