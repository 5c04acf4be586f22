import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CHECKS as CATALOGUE } from "../../harness/conformance/checks/index.ts";
import { abridge } from "../../harness/conformance/excerpt.ts";
import { FIXTURES } from "../../harness/conformance/fixtures/index.ts";
import { canonicalJson } from "../../harness/trace/canonical-json.ts";
import { readTraceFile } from "../../harness/trace/jsonl.ts";
import { parseResult } from "../../harness/result/index.ts";
import { childEnv, ctxbench, REPO } from "./support.ts";

/**
 * Record, don't patch: for THR-4 and one failing check of each rule family, certify the check's
 * fixture engine as a plugin, run each replay command its repro file prints exactly as printed,
 * and find the check's evidence in the trace that command writes. A check reading several
 * catalogue scenarios is certified on one of them (`--scenarios`, as an author rechecking one
 * failure would): its ten scenarios cost more than a whole truncate certification, and one shows
 * the failure and its replay as well as ten.
 */
const CHECKS = [
  "REG-5/name-matches-selection",
  "ABC-2/usage-echo",
  "CMP-2/orphaned-result",
  "SEL-7/return-shape",
  "OTC-5/null-usage",
  "UID-7/shared-uid",
  "TCU-3/repeated-tool-call-ids",
  "TOOL-2/json-results",
  "LIFE-2/lifecycle",
  "THR-2/session-isolation",
  "THR-4/nothing-published-after-timeout",
  "CACHE-2/stable-prefix",
];

const work = mkdtempSync(join(tmpdir(), "ctxbench-replay-"));
const plugins = join(work, "plugins");
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The fixture breaking `check`, as a plugin directory named the way it is selected. */
function fixturePlugin(check: string): string {
  const fixture = FIXTURES.find((candidate) => candidate.check === check)!;
  const name = fixture.selectedName ?? fixture.create().name;
  const directory = join(plugins, name);
  mkdirSync(directory, { recursive: true });
  writeFileSync(join(directory, "plugin.yaml"), `name: ${name}\ndescription: the fixture of ${check}\nversion: 0.0.0\n`);
  writeFileSync(
    join(directory, "index.ts"),
    `import { FIXTURES } from ${JSON.stringify(join(REPO, "harness/conformance/fixtures/index.ts"))};
const fixture = FIXTURES.find((candidate) => candidate.check === ${JSON.stringify(check)})!;
export function register(ctx: { register_context_engine(engine: unknown): void }): void {
  ctx.register_context_engine(fixture.create());
}
`,
  );
  return name;
}

/** Run a printed command line as a shell would, with `ctxbench` being this checkout's CLI. */
function shell(command: string, cwd: string): Promise<{ code: number; stderr: string }> {
  const line = command.replace(/^ctxbench /, `'${process.execPath}' '${join(REPO, "bin/ctxbench.mjs")}' `);
  return new Promise((resolve) => {
    execFile("sh", ["-c", line], { cwd, env: childEnv(), timeout: 120_000, maxBuffer: 64 * 1024 * 1024 }, (error, _stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stderr });
    });
  });
}

/** An event as evidence shows it: abridged, without what differs run to run (the sandbox path inside argument digests). */
const comparable = (event: unknown) => {
  const { args: _args, ...rest } = abridge(event) as Record<string, unknown>;
  return canonicalJson(rest);
};

// All made before any case runs: a certification watches its plugin root for new files.
const NAMES = new Map(CHECKS.map((check) => [check, fixturePlugin(check)]));

describe.concurrent("every failing check's replay command records its evidence", { timeout: 240_000 }, () => {
  it.each(CHECKS)("%s", async (check) => {
    const name = NAMES.get(check)!;
    const cwd = mkdtempSync(join(work, "case-"));
    const entry = CATALOGUE.find((candidate) => candidate.id === check)!;
    const scenarios = entry.scenarios.length > 1 ? ["--scenarios", entry.scenarios.includes("parallel-tool-calls") ? "parallel-tool-calls" : entry.scenarios[0]!] : [];
    const certify = await ctxbench(["certify", "--plugins", plugins, "--engine", name, "--checks", check, ...scenarios, "--out", "out"], { cwd, timeoutMs: 200_000 });
    // A SHOULD failure is a warning: exit 0, but it still gets a repro.
    expect(certify.code, certify.stderr).toBe(entry.level === "MUST" ? 1 : 0);
    const result = parseResult(readFileSync(join(cwd, "out", "result.json"), "utf8"));
    // The recorded command repeats the scenarios played.
    if (scenarios.length > 0) expect(result.runInfo.command).toContain(scenarios.join(" "));
    const reported = result.certifications[0]!.checks.find((candidate) => candidate.id === check)!;
    expect(reported.outcome).toBe("fail");
    const repro = readFileSync(join(cwd, "out", "repro", `${check.replace(/[^A-Za-z0-9-]+/g, "_")}.md`), "utf8");
    const commands = repro.split("\n").filter((line) => line.startsWith("ctxbench run "));
    expect(commands.length).toBeGreaterThan(0);
    const traces = new Map<string, ReturnType<typeof readTraceFile>>();
    for (const command of commands) {
      const run = await shell(command, cwd);
      expect(run.code, `${command}\n${run.stderr}`).toBe(0);
      const source = /--scenario (\S+)/.exec(command)?.[1] ?? `probe:${/--probe (\S+)/.exec(command)![1]}`;
      traces.set(source.startsWith("probe:") ? source : `scenario:${source}`, readTraceFile(join(cwd, /--trace (\S+)/.exec(command)![1]!)));
    }
    const events = reported.evidence.events as Array<{ source: string; seq: number; event: unknown }>;
    expect(events.length).toBeGreaterThan(0);
    for (const item of events) {
      const trace = traces.get(item.source);
      expect(trace, `a replay of ${item.source}`).toBeDefined();
      expect(comparable(trace![item.seq]), `${item.source} event ${item.seq}`).toBe(comparable(item.event));
    }
    if (check.startsWith("THR-4/")) expect(events.some((item) => (item.event as { type: string }).type === "sandbox-watch")).toBe(true);
  });
});
