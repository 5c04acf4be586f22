import { mkdtempSync, readdirSync, readFileSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { builtFromCurrentSources } from "../../bin/built.mjs";
import { ctxbench as runCli, REPO } from "./support.ts";
import { parseTrace, readTraceFile, serializeTraceWithoutDurations } from "../../harness/trace/jsonl.ts";

const FIXTURE = join(REPO, "harness/host/fixtures/two-sessions.json");
const work = mkdtempSync(join(tmpdir(), "ctxbench-e2e-run-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const ctxbench = (args: string[], env?: Record<string, string>) => runCli(args, { cwd: work, timeoutMs: 90_000, ...(env ? { env } : {}) });

describe("ctxbench run (as a process)", () => {
  it("writes a JSONL trace for a scenario file (gzip-compressed for a .gz path), identical apart from durations across runs", async () => {
    const [first, second] = await Promise.all([
      ctxbench(["run", "--engine", "compressor", "--scenario", FIXTURE, "--trace", "a.jsonl", "--json"]),
      ctxbench(["run", "--engine", "compressor", "--scenario", FIXTURE, "--trace", "b.jsonl.gz"]),
    ]);
    expect(first.code, first.stderr).toBe(0);
    expect(second.code, second.stderr).toBe(0);
    const textA = readFileSync(join(work, "a.jsonl"), "utf8");
    const lines = textA.trimEnd().split("\n");
    for (const line of lines) expect(typeof (JSON.parse(line) as { type?: unknown }).type).toBe("string");
    const trace = parseTrace(textA);
    expect(trace[0]).toMatchObject({ type: "run-start", scenario: "host-fixture-two-sessions", seed: 7, engine: { name: "compressor" } });
    expect(trace.at(-1)?.type).toBe("run-end");
    const request = trace.find((event) => event.type === "request");
    expect(request).toMatchObject({ type: "request", session: "alpha" });
    expect(readFileSync(join(work, "b.jsonl.gz")).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    expect(serializeTraceWithoutDurations(readTraceFile(join(work, "b.jsonl.gz")))).toBe(serializeTraceWithoutDurations(trace));
    const summary = JSON.parse(first.stdout) as { turns: number; requests: number; sessions: number; trace: string };
    expect(summary).toMatchObject({ turns: 4, sessions: 2, trace: join(work, "a.jsonl") });
    expect(summary.requests).toBe(trace.filter((event) => event.type === "request").length);
    expect(second.stdout).toMatch(/turns 4/);
  });

  it("a different seed changes the trace (uids are seeded)", async () => {
    const result = await ctxbench(["run", "--engine", "compressor", "--scenario", FIXTURE, "--seed", "8", "--trace", "c.jsonl"]);
    expect(result.code, result.stderr).toBe(0);
    const seeded = parseTrace(readFileSync(join(work, "c.jsonl"), "utf8"));
    expect(seeded[0]).toMatchObject({ seed: 8 });
  });

  it("rejects an unknown scenario and an unknown engine with exit 2 and one line", async () => {
    const [unknownScenario, missingFile, unknownEngine] = await Promise.all([
      ctxbench(["run", "--engine", "compressor", "--scenario", "no-such-scenario"]),
      ctxbench(["run", "--engine", "compressor", "--scenario", "missing.json"]),
      ctxbench(["run", "--engine", "no-such-engine", "--scenario", FIXTURE, "--trace", "d.jsonl"]),
    ]);
    expect(unknownScenario.code).toBe(2);
    expect(unknownScenario.stderr).toMatch(/unknown scenario "no-such-scenario"/);
    expect(missingFile.code).toBe(2);
    expect(unknownEngine.code).toBe(2);
    expect(unknownEngine.stderr.trim().split("\n")).toHaveLength(1);
    expect(existsSync(join(work, "d.jsonl"))).toBe(false);
  });

  it("a catalogue scenario and the tokenizer's table built (cold cache), read from the cache (warm) or built with the cache off give the same trace; the entries are keyed by the build", async () => {
    const cache = mkdtempSync(join(work, "cache-"));
    const play = (trace: string, dir: string) => ctxbench(["run", "--engine", "truncate", "--scenario", "merges", "--seed", "4", "--trace", trace], { CTXBENCH_CACHE_DIR: dir });
    const cold = await play("cold.jsonl", cache);
    const warm = await play("warm.jsonl", cache);
    const off = await play("off.jsonl", "off");
    for (const outcome of [cold, warm, off]) expect(outcome.code, outcome.stderr).toBe(0);
    const [coldTrace, warmTrace, offTrace] = ["cold", "warm", "off"].map((name) => serializeTraceWithoutDurations(readTraceFile(join(work, `${name}.jsonl`))));
    expect(warmTrace).toBe(coldTrace);
    expect(offTrace).toBe(coldTrace);
    if (builtFromCurrentSources(REPO)) {
      const { id } = JSON.parse(readFileSync(join(REPO, "dist/build-id.json"), "utf8")) as { id: string };
      expect(readdirSync(join(cache, "scenarios", id))).toEqual(["merges.seed-4.json"]);
      // The player counting the run's tokens stored the table the warm run's player read.
      expect(readdirSync(join(cache, "tokenizer", id))).toEqual(["o200k_base.bin"]);
    } else {
      // Run from the sources: no build, so nothing is cached.
      expect(readdirSync(cache)).toEqual([]);
    }
  });
});
