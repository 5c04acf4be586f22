import { describe, expect, it } from "vitest";
import type { HostEvent, Scenario } from "../../scenarios/format.ts";
import type { CompactionObserver } from "./observers.ts";
import { playScenario } from "./play.ts";
import { eventsOf, sandboxesPerTest, scenario, turn } from "./test-support.ts";
import { MinimalEngine } from "../testkit/minimal-engine.ts";

const home = sandboxesPerTest();

function withEvents(...events: HostEvent[]): Scenario {
  return scenario([turn("one", "a"), turn("two", "b")], {
    schedule: [{ kind: "turn", session: "s1", turn: 0 }, { kind: "turn", session: "s1", turn: 1 }, ...events.map((event) => ({ kind: "event" as const, session: "s1", event }))],
  });
}

describe("the host's observer seam in a compaction pass", () => {
  it("tells observers of a pass's start, snapshot, discard and settling, in order, numbering the pass as its compaction event", async () => {
    const seen: string[] = [];
    const observer: CompactionObserver = {
      passStarted: (pass) => seen.push(`start ${pass.pass} ${pass.trigger}`),
      snapshotTaken: (pass, snapshot) => seen.push(`snapshot ${pass.pass} ${snapshot.length}`),
      passDiscarded: (pass) => seen.push(`discard ${pass.pass}`),
      passSettled: (pass, outcome) => seen.push(`settle ${pass.pass} ${outcome.settled} ${outcome.discarded}`),
    };
    const { trace } = await playScenario(withEvents({ type: "timeout-next-compaction" }, { type: "compress" }, { type: "compress" }), new MinimalEngine({ name: "tail" }), { home: home(), observers: [observer] });
    expect(seen).toEqual(["start 0 manual", "snapshot 0 5", "discard 0", "settle 0 true true", "start 1 manual", "snapshot 1 5", "settle 1 true false"]);
    expect(eventsOf(trace, "compaction").map((event) => [event.pass, event.outcome])).toEqual([
      [0, "timeout"],
      [1, "committed"],
    ]);
  });

  it("records an observer that throws as a warning and goes on", async () => {
    const broken: CompactionObserver = {
      passStarted: () => {
        throw new Error("observer broke");
      },
    };
    const { trace } = await playScenario(withEvents({ type: "compress" }), new MinimalEngine({ name: "tail" }), { home: home(), observers: [broken] });
    expect(eventsOf(trace, "warning").map((event) => event.message)).toContain("a host observer failed at passStarted: observer broke");
    expect(eventsOf(trace, "compaction").map((event) => event.outcome)).toEqual(["committed"]);
  });

});
