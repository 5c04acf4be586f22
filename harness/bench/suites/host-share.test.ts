import { describe, expect, it } from "vitest";
import { sampleTranscript } from "../../testkit/transcript.ts";
import { measureHostShare } from "./host-share.ts";
import { referencePassOutput } from "./throughput.ts";

describe("measureHostShare", () => {
  const transcript = sampleTranscript({ messages: 200, seed: 3 });

  it("times every part of every run, and the total is the parts without the engine's own time", () => {
    const share = measureHostShare(transcript, referencePassOutput, { runs: 3 });
    expect(share.totalsMs).toHaveLength(3);
    for (const part of [share.snapshotMs, share.judgeMs, share.commitMs]) expect(part).toBeGreaterThanOrEqual(0);
    for (const total of share.totalsMs) expect(total).toBeGreaterThan(0);
    expect(share.relativeSpread).toBeGreaterThanOrEqual(0);
  });

  it("hands compress a private deep copy of the history, as the host does (THR-3)", () => {
    const firstContents: unknown[] = [];
    measureHostShare(
      transcript,
      (snapshot) => {
        firstContents.push(snapshot[0]!["content"]);
        // The history is the list the store stamped (row ids and uids added): the same messages, more fields.
        expect(snapshot.map((message) => message["content"])).toEqual(transcript.map((message) => message["content"]));
        expect(snapshot[0]).not.toBe(transcript[0]);
        snapshot[0]!["content"] = "edited by the engine";
        return referencePassOutput(transcript);
      },
      { runs: 2 },
    );
    // The first run's edit of its snapshot reached neither the next run's history nor the transcript.
    expect(firstContents).toEqual([transcript[0]!["content"], transcript[0]!["content"]]);
    expect(transcript[0]!["content"]).not.toBe("edited by the engine");
  });

  it("refuses to time a pass the host would not commit", () => {
    expect(() => measureHostShare(transcript, (snapshot) => snapshot, { runs: 1 })).toThrow(/the pass output was refused/);
  });

  it("runs the caller's hook before each timed run", () => {
    let calls = 0;
    measureHostShare(transcript, referencePassOutput, { runs: 4, beforeRun: () => calls++ });
    expect(calls).toBe(4);
  });
});
