import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseTrace } from "../../harness/trace/jsonl.ts";
import { ctxbench as runCli, REPO } from "./support.ts";

const PLUGINS = join(REPO, "test/fixtures/plugins/faulty");
const work = mkdtempSync(join(tmpdir(), "ctxbench-e2e-faults-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const ctxbench = (args: string[]) => runCli(args, { cwd: work, timeoutMs: 90_000 });

describe("an engine bug is the engine's, never ctxbench's (as processes)", () => {
  it("run: a summary with object content is a refused pass with a warning naming the element, exit 0 and a full trace", async () => {
    const result = await ctxbench(["run", "--plugins", PLUGINS, "--engine", "object-summary", "--scenario", "parallel-tool-calls", "--trace", "t.jsonl"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(/internal error|bug in ctxbench/);
    const trace = parseTrace(readFileSync(join(work, "t.jsonl"), "utf8"));
    expect(trace.at(-1)?.type).toBe("run-end");
    const passes = trace.filter((event) => event.type === "compaction");
    expect(passes.length).toBeGreaterThan(0);
    expect(passes.every((event) => event.type === "compaction" && event.outcome === "refused-invalid")).toBe(true);
    const warning = trace.find((event) => event.type === "warning" && event.message.startsWith("Compression refused"));
    expect(warning).toMatchObject({ rule: "CMP-1" });
    expect(warning?.type === "warning" && warning.message).toContain("element 1 (role user): content is an object; expected a string or a list of typed parts");
  });

  it("certify: the same bug is one CMP-1 failure with the element named, not errors, and exit 1", async () => {
    const result = await ctxbench(["certify", "--plugins", PLUGINS, "--engine", "object-summary", "--checks", "CMP", "--format", "json"]);
    expect(result.code, result.stderr).toBe(1);
    const checks = (JSON.parse(result.stdout) as { certifications: Array<{ checks: Array<{ id: string; outcome: string; message: string }> }> }).certifications[0]!.checks;
    expect(checks.filter((check) => check.outcome === "error")).toEqual([]);
    const shape = checks.find((check) => check.id === "CMP-1/message-shape")!;
    expect(shape.outcome).toBe("fail");
    expect(shape.message).toContain("element 1 (role user): content is an object; expected a string or a list of typed parts");
  });
});
