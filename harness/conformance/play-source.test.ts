import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { TruncateEngine } from "../../engines/truncate/index.ts";
import { ARCHIVE_MARKS_TABLE } from "../store/archive-marks.ts";
import { playSource, type PlayableEngine } from "./play-source.ts";

const root = mkdtempSync(join(tmpdir(), "ctxbench-play-source-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const engine: PlayableEngine = { selectedName: "truncate", manifestName: "truncate", version: "0", origin: null, createFresh: async () => new TruncateEngine() };
const marksLeft = (path: string): number => {
  const db = new Database(path);
  try {
    return (db.prepare(`SELECT COUNT(*) AS n FROM ${ARCHIVE_MARKS_TABLE}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe("playSource's session store", () => {
  it("a scratch store (a certification's) is left with its archive marks unsettled, a kept one is settled, and both record the same trace", async () => {
    const traces: string[] = [];
    const marks: number[] = [];
    for (const scratchStore of [true, false]) {
      const home = join(root, `home-${scratchStore}`);
      const storePath = join(root, `store-${scratchStore}.db`);
      const { trace } = await playSource({ kind: "scenario", name: "preflight", seed: 1 }, engine, { home, storePath, scratchStore });
      expect(trace.some((event) => event.type === "compaction" && event.outcome === "committed")).toBe(true);
      traces.push(JSON.stringify(trace, (key, value) => (key === "durationMs" ? 0 : value)));
      marks.push(marksLeft(storePath));
    }
    expect(marks[0]).toBeGreaterThan(0);
    expect(marks[1]).toBe(0);
    expect(traces[0]).toBe(traces[1]);
  });
});
