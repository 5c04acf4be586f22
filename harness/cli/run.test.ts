import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { parseTrace } from "../trace/jsonl.ts";
import { runCli } from "./main.ts";
import { memoryIo } from "./test-io.ts";

const FIXTURE = fileURLToPath(new URL("../host/fixtures/two-sessions.json", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "ctxbench-run-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("ctxbench run", () => {
  it("plays a scenario file into a kept --home and prints a JSON summary", async () => {
    const io = memoryIo(dir);
    const code = await runCli(["run", "--engine", "truncate", "--scenario", FIXTURE, "--home", "sandbox", "--trace", "traces/t.jsonl", "--json"], io);
    expect(code, io.err()).toBe(0);
    const summary = JSON.parse(io.out()) as Record<string, unknown>;
    expect(summary).toMatchObject({ scenario: "host-fixture-two-sessions", seed: 7, engine: "truncate", turns: 4, sessions: 2 });
    const trace = parseTrace(readFileSync(join(dir, "traces/t.jsonl"), "utf8"));
    expect(trace.length).toBe(summary["events"]);
    expect(readFileSync(join(dir, "sandbox/sessions.db")).subarray(0, 15).toString()).toBe("SQLite format 3");
  });

  it("refuses a --home that already holds a store, a bad seed and a broken scenario file with exit 2", async () => {
    mkdirSync(join(dir, "used"), { recursive: true });
    writeFileSync(join(dir, "used/sessions.db"), "");
    writeFileSync(join(dir, "broken.json"), '{"formatVersion": 1}');
    const cases: Array<[string[], RegExp]> = [
      [["--scenario", FIXTURE, "--home", "used"], /already holds a session store/],
      [["--scenario", FIXTURE, "--seed", "1.5"], /--seed must be a whole number, got "1\.5"/],
      [["--scenario", "broken.json"], /broken\.json/],
      [["--scenario", FIXTURE, "--compaction-timeout", "0"], /--compaction-timeout must be a whole number of milliseconds from 1 to/],
    ];
    for (const [args, message] of cases) {
      const io = memoryIo(dir);
      expect(await runCli(["run", "--engine", "compressor", ...args], io)).toBe(2);
      expect(io.err()).toMatch(message);
    }
  });

  it("writes the trace to stdout with --trace=- and the summary to stderr", async () => {
    const io = memoryIo(dir);
    expect(await runCli(["run", "--engine", "compressor", "--scenario", FIXTURE, "--trace=-"], io)).toBe(0);
    expect(parseTrace(io.out())[0]).toMatchObject({ type: "run-start" });
    expect(io.err()).toMatch(/turns 4/);
  });
});
