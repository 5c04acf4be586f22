import { existsSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildScenario, listScenarios, parseScenario, scenarioToJson, type Scenario } from "../../scenarios/index.ts";
import { runCli } from "./main.ts";
import { memoryIo } from "./test-io.ts";

const dir = mkdtempSync(join(tmpdir(), "ctxbench-cli-scenarios-"));

async function run(args: string[]) {
  const io = memoryIo(dir);
  const code = await runCli(["scenarios", ...args], io);
  return { code, out: io.out(), err: io.err() };
}

describe("ctxbench scenarios", () => {
  it("list --json gives each scenario's name, description and rules", async () => {
    const { code, out } = await run(["list", "--json"]);
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual(listScenarios());
  });

  it("list prints a plain table without colour when stdout is not a terminal", async () => {
    const { code, out } = await run(["list"]);
    expect(code).toBe(0);
    expect(out).toContain("repeated-tool-call-ids");
    expect(out).toContain("TCU-3");
    expect(out).not.toMatch(/\u001b\[/);
  });

  it("show prints the catalogue scenario's canonical JSON for the seed", async () => {
    const { code, out } = await run(["show", "merges", "--seed", "9"]);
    expect(code).toBe(0);
    expect(out).toBe(scenarioToJson(buildScenario("merges", 9)));
  });

  it("show refuses an unknown name or a fractional seed with exit 2", async () => {
    const unknown = await run(["show", "nope"]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('unknown scenario "nope"');
    const seed = await run(["show", "basic", "--seed", "1.5"]);
    expect(seed.code).toBe(2);
    expect(seed.err).toContain(`--seed must be a whole number, got "1.5"`);
  });

  it("generate follows its options", async () => {
    const { code, out } = await run(["generate", "--turns", "5", "--sessions", "3", "--tool-output-bytes", "300", "--id-style", "constant", "--calls-per-step", "3", "--seed", "4"]);
    expect(code).toBe(0);
    const scenario: Scenario = parseScenario(out);
    expect(scenario.seed).toBe(4);
    expect(scenario.sessions.map((s) => s.turns.length)).toEqual([5, 5, 5]);
    const ids = new Set(scenario.sessions.flatMap((s) => s.turns.flatMap((t) => t.steps.flatMap((step) => (step.toolCalls ?? []).map((c) => c.id)))));
    expect(ids).toEqual(new Set(["call_0"]));
  });

  it("generate refuses a bad id style or a negative size with exit 2", async () => {
    expect((await run(["generate", "--id-style", "weird"])).code).toBe(2);
    const negative = await run(["generate", "--tool-output-bytes", "-5"]);
    expect(negative.code).toBe(2);
    expect(negative.err).toContain("--tool-output-bytes must be a whole number from 0 to 1000000, got -5");
  });

  it("import writes one scenario file per session into --out", async () => {
    const input = join(dir, "chat.json");
    writeFileSync(input, JSON.stringify([{ role: "user", content: "hi" }, { role: "assistant", content: "hello" }]));
    const out = join(dir, "imported");
    const result = await run(["import", input, "--out", out, "--context-length", "32000"]);
    expect(result.code).toBe(0);
    expect(readdirSync(out)).toEqual(["imported-chat.json"]);
    expect(result.out.trim()).toBe(join(out, "imported-chat.json"));
  });

  it("import of a bad file exits 2 naming the file and line, and writes nothing", async () => {
    const input = join(dir, "bad.jsonl");
    writeFileSync(input, '{"role":"user","content":"a"}\n{"content":"b"}\n');
    const out = join(dir, "never");
    const result = await run(["import", input, "--out", out]);
    expect(result.code).toBe(2);
    expect(result.err).toBe(`ctxbench: ${input}: line 2: message has no role\n`);
    expect(existsSync(out)).toBe(false);
  });
});
