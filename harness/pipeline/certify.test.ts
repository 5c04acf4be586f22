import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { certifyEngine } from "./certify.ts";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const committed = (name: string): Record<string, string> => JSON.parse(readFileSync(new URL(`../conformance/bundled-outcomes/${name}.json`, import.meta.url), "utf8"));

// A whole certification in players: seconds, more on a loaded machine.
const WHOLE_CERTIFICATION_MS = 300_000;

describe("a certification through the pipeline", { timeout: WHOLE_CERTIFICATION_MS }, () => {
  it("gives the bundled engine's committed outcomes: players, the runs' order and checks judged as runs settle change nothing", async () => {
    const outcome = await certifyEngine({ cwd: repoRoot, engine: "truncate" });
    const outcomes = Object.fromEntries(outcome.assembled.results.map((result) => [result.id, result.outcome]));
    expect(outcomes).toEqual(committed("truncate"));
  });
});
