import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import type { CompressOptions, Message } from "../../contract/types.ts";
import { playScenario } from "../../host/play.ts";
import { eventsOf, sandboxesPerTest, scenario, turn } from "../../host/test-support.ts";
import { MinimalEngine } from "../../testkit/minimal-engine.ts";
import type { HostEvent, Scenario } from "../../../scenarios/format.ts";
import { standardRecorders } from "./index.ts";

const home = sandboxesPerTest();

function withEvents(...events: HostEvent[]): Scenario {
  return scenario([turn("one", "a"), turn("two", "b")], {
    schedule: [{ kind: "turn", session: "s1", turn: 0 }, { kind: "turn", session: "s1", turn: 1 }, ...events.map((event) => ({ kind: "event" as const, session: "s1", event }))],
  });
}

/** Writes a file into its sandbox during every pass, before the host decides anything. */
class EagerWriter extends MinimalEngine {
  home: string | null = null;
  override on_session_start(_id: string, info?: { home?: string }): void {
    this.home = info?.home ?? null;
  }
  override compress(messages: Message[], current?: number | null, focus?: string | null, options?: CompressOptions): Message[] | Promise<Message[]> {
    if (this.home !== null) writeFileSync(join(this.home, `pass-${this.compression_count}.json`), "{}");
    return super.compress(messages, current, focus, options);
  }
}

describe("the standard recorders", () => {
  it("THR-4's sandbox watch writes the sandbox before and after a discarded pass into the trace, during the play", async () => {
    const sandbox = home();
    // Beside the sandbox, not in it (the watch lists the sandbox's files); removed with it.
    const store = `${sandbox}.sessions.db`;
    onTestFinished(() => {
      for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(`${store}${suffix}`, { force: true });
    });
    const { trace } = await playScenario(withEvents({ type: "timeout-next-compaction" }, { type: "compress" }, { type: "compress" }), new EagerWriter(), {
      home: sandbox,
      storePath: store,
      observers: standardRecorders(),
    });
    const watches = eventsOf(trace, "sandbox-watch");
    expect(watches).toHaveLength(1);
    expect(watches[0]).toMatchObject({ session: "s1", pass: 0, before: {} });
    expect(Object.keys(watches[0]!.after!)).toEqual(["pass-0.json"]);
    const discarded = eventsOf(trace, "compaction").find((event) => event.outcome === "timeout")!;
    expect(discarded.pass).toBe(0);
    expect(watches[0]!.seq).toBeLessThan(discarded.seq);
  });
});
