import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { junitSchemaErrors } from "../../reports/fixtures/junit-schema.ts";
import { parseXml, type XmlElement } from "../../reports/xml-parse.ts";
import { parseResult } from "../../harness/result/index.ts";
import { CONTRACT_MODULE } from "./support.ts";

const run = promisify(execFile);
const REPO = fileURLToPath(new URL("../../", import.meta.url));
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith("npm_") && key !== "GITHUB_STEP_SUMMARY"));
env["NO_COLOR"] = "1";
const work = mkdtempSync(join(tmpdir(), "ctxbench-e2e-certify-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function ctxbench(args: string[], extraEnv: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [join(REPO, "bin/ctxbench.mjs"), ...args], { cwd: work, env: { ...env, ...extraEnv }, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    if (typeof failed.code !== "number") throw error;
    return { code: failed.code, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

/** A user plugin directory whose engine throws when should_compress gets no argument (ABC-6). */
function brokenPlugin(root: string): string {
  const directory = join(root, "broken");
  mkdirSync(directory, { recursive: true });
  writeFileSync(join(directory, "plugin.yaml"), "name: broken\ndescription: should_compress needs its argument\nversion: 1.0.0\n");
  writeFileSync(
    join(directory, "index.mjs"),
    `import { ContextEngine } from ${JSON.stringify(CONTRACT_MODULE)};
export class BrokenEngine extends ContextEngine {
  name = "broken";
  update_from_response(usage) { this.last_prompt_tokens = usage.prompt_tokens; this.last_completion_tokens = usage.completion_tokens; this.last_total_tokens = usage.total_tokens; }
  should_compress(tokens) { if (tokens === undefined) throw new TypeError("prompt_tokens is required"); return tokens >= this.threshold_tokens; }
  compress(messages) { this.compression_count += 1; return messages; }
}
`,
  );
  return root;
}

/** A plugin whose compress() never returns control (`spin`) or ends the process (`exit`). */
function misbehavingPlugin(root: string, name: string, body: string): string {
  const directory = join(root, name);
  mkdirSync(directory, { recursive: true });
  writeFileSync(join(directory, "plugin.yaml"), `name: ${name}\ndescription: compress misbehaves\nversion: 1.0.0\n`);
  writeFileSync(
    join(directory, "index.mjs"),
    `import { ContextEngine } from ${JSON.stringify(CONTRACT_MODULE)};
export class MisbehavingEngine extends ContextEngine {
  name = ${JSON.stringify(name)};
  update_from_response(usage) { this.last_prompt_tokens = usage.prompt_tokens; this.last_completion_tokens = usage.completion_tokens; this.last_total_tokens = usage.total_tokens; }
  should_compress(tokens) { console.log("engine chatter on stdout"); return (tokens ?? this.last_prompt_tokens) >= this.threshold_tokens; }
  compress(messages) { ${body} }
}
`,
  );
  return root;
}

const cases = (suite: XmlElement) => suite.children.filter((child) => child.name === "testcase");
const caseOf = (xml: XmlElement, id: string) => xml.children.flatMap(cases).find((test) => test.attributes["name"]?.startsWith(`${id} `))!;

// Each process may take up to its own 120 s (the helper's bound); the tests wait that long, not vitest's default 60 s.
describe("ctxbench certify (as a process)", { timeout: 150_000 }, () => {
  const plugins = brokenPlugin(join(work, "plugins"));

  it("certifies a bundled engine: exit 0, the result JSON (schemaVersion, runInfo, the certification's engine, verdict and checks); deterministic", async () => {
    const args = ["certify", "--engine", "compressor", "--checks", "ABC", "REG", "CMP-1", "--seed", "2", "--format", "json"];
    const out = join(work, "bundled-out");
    const [first, second] = await Promise.all([ctxbench([...args, "--out", out]), ctxbench(args)]);
    expect(first.code, first.stderr).toBe(0);
    // One document: what --format json prints is the result.json that --out writes, byte for byte.
    expect(readFileSync(join(out, "result.json"), "utf8")).toBe(first.stdout);
    const result = parseResult(first.stdout);
    expect(result.schemaVersion).toBe(2);
    expect(result.runInfo.seed).toBe(2);
    expect(result.runInfo.command).toBe("ctxbench certify --engine compressor --seed 2 --checks ABC REG CMP-1");
    const json = result.certifications[0]!;
    expect(json.engine.name).toBe("compressor");
    expect(json.verdict).toBe("certified");
    expect(json.checks.map((check) => check["id"])).toContain("CMP-1/message-shape");
    for (const check of json.checks) for (const key of ["id", "rule", "level", "outcome", "expected", "message", "evidence", "durationMs"]) expect(check, key).toHaveProperty(key);
    const view = (text: string) => parseResult(text).certifications[0]!.checks.map(({ durationMs: _d, ...rest }) => rest);
    expect(view(second.stdout)).toEqual(view(first.stdout));
    writeFileSync(join(work, "certify.json"), first.stdout);
    const merged = await ctxbench(["merge", join(work, "certify.json"), "--format", "json"]);
    expect(merged.code, merged.stderr).toBe(0);
    expect(parseResult(merged.stdout).certifications[0]!.checks).toHaveLength(json.checks.length);
  });

  it("refuses a broken engine: exit 1, every format and a repro file in --out, the job summary appended", async () => {
    const summary = join(work, "summary.md");
    const out = join(work, "broken-out");
    const result = await ctxbench(["certify", "--plugins", plugins, "--engine", "broken", "--checks", "ABC", "--out", out], { GITHUB_STEP_SUMMARY: summary });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain("broken is not certified");
    expect(result.stderr).toContain("ABC-6/should-compress-boolean");
    expect(result.stdout).not.toMatch(/\u001b\[/);
    for (const file of ["result.json", "junit.xml", "report.md", "report.tap", "report.html", "report.txt"]) expect(existsSync(join(out, file)), file).toBe(true);
    const repro = readFileSync(join(out, "repro", "ABC-6_should-compress-boolean.md"), "utf8");
    expect(repro).toContain(`ctxbench certify --engine broken --plugins ${plugins} --checks ABC-6/should-compress-boolean --seed 1`);
    expect(repro).toContain("prompt_tokens is required");
    const parsed = parseResult(readFileSync(join(out, "result.json"), "utf8"));
    expect(parsed.certifications[0]!.verdict).toBe("not-certified");
    const junit = readFileSync(join(out, "junit.xml"), "utf8");
    expect(await junitSchemaErrors(junit)).toEqual([]);
    const xml = parseXml(junit);
    expect(xml.children.flatMap(cases)).toHaveLength(parsed.certifications[0]!.checks.length);
    expect(caseOf(xml, "ABC-6/should-compress-boolean").children[0]!.name).toBe("failure");
    const markdown = readFileSync(summary, "utf8");
    expect(markdown).toMatch(/^\|.*\|$/m);
    expect(markdown).toContain("ABC-6");
  });

  it("finishes with a verdict when compress() never returns control or ends the process: those checks time out or error, the rest run", async () => {
    const root = join(work, "misbehaving-plugins");
    misbehavingPlugin(root, "spin", "for (;;) {}");
    misbehavingPlugin(root, "quit", "process.exit(7);");
    const certifyOne = (engine: string) => ctxbench(["certify", "--plugins", root, "--engine", engine, "--checks", "ABC-2", "ABC-5", "ABC-6", "--timeout", "1000", "--format", "json"]);
    const [spin, quit] = await Promise.all([certifyOne("spin"), certifyOne("quit")]);
    for (const [run, outcome, message] of [
      [spin, "timeout", /probe:compress did not finish within 1000 ms: the engine did not return control, or a hook never settled, so ctxbench stopped the player running it/],
      [quit, "error", /probe:compress: the player process running it exited \(code 7\)/],
    ] as const) {
      expect(run.code, run.stderr).toBe(1);
      const json = parseResult(run.stdout).certifications[0]!;
      expect(json.verdict).toBe("not-certified");
      expect(json.checks.map((check) => [check.id, check.outcome])).toEqual([
        ["ABC-2/usage-echo", "pass"],
        ["ABC-5/compression-count", outcome],
        ["ABC-6/should-compress-boolean", "pass"],
      ]);
      expect(json.checks[1]!.message).toMatch(message);
      // What the engine printed is summarised, never parsed and never in the report on stdout.
      expect(run.stderr).toMatch(/note: the engine printed \d+ bytes in \d+ line\(s\) on stdout \(first: "engine chatter on stdout"\)/);
      expect(run.stdout).not.toContain("engine chatter");
    }
  });

  it("honours an expectations file beside the plugin: the known failure is expected, and JUnit shows it skipped with the reason", async () => {
    const root = brokenPlugin(join(work, "expected-plugins"));
    writeFileSync(join(root, "broken", "expectations.yaml"), "ABC-6/should-compress-boolean:\n  expected: fail\n  reason: the argument is required until v2\n");
    const result = await ctxbench(["certify", "--plugins", root, "--engine", "broken", "--checks", "ABC-6", "ABC-2", "--format", "junit"]);
    expect(result.code, result.stderr).toBe(0);
    const test = caseOf(parseXml(result.stdout), "ABC-6/should-compress-boolean");
    expect(test.children[0]!.name).toBe("skipped");
    expect(test.children[0]!.text).toContain("the argument is required until v2");
    expect(await junitSchemaErrors(result.stdout)).toEqual([]);
  });

  it("--update-expectations writes the observed failures and keeps the entries of checks that did not run; the run that found a new failure is not certified", async () => {
    const file = join(work, "updated.yaml");
    writeFileSync(file, "TOOL-1/tool-schemas:\n  expected: fail\n  reason: schemas come in v2\n  link: https://example.invalid/issue/1\n");
    const args = ["certify", "--plugins", plugins, "--engine", "broken", "--checks", "ABC-6", "ABC-2", "--expectations", file, "--format", "tap"];
    const first = await ctxbench([...args, "--update-expectations"]);
    expect(first.code, first.stderr).toBe(1);
    expect(first.stderr).toContain(`wrote 2 expectation(s) to ${file}`);
    const text = readFileSync(file, "utf8");
    expect(text).toContain("ABC-6/should-compress-boolean:");
    expect(text).toContain("expected: fail");
    expect(text).not.toContain("ABC-2/");
    expect(text).toContain("reason: schemas come in v2");
    expect(text).toContain("link: https://example.invalid/issue/1");
    const second = await ctxbench(args);
    expect(second.code, second.stderr).toBe(0);
  });

  it("a plugin laid out as hermes-lcm (directory and plugin.yaml hermes-lcm, registering lcm) is found as lcm through the general-plugin path and passes REG-5", async () => {
    const result = await ctxbench(["certify", "--plugins", join(REPO, "test/fixtures/plugins/hermes"), "--engine", "lcm", "--checks", "REG-5", "--format", "json"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("the bundled engine of that name stays reachable as bundled:lcm");
    const json = parseResult(result.stdout).certifications[0]!;
    expect(json.engine).toEqual({ name: "lcm", version: "0.7.0" });
    expect(json.checks[0]).toMatchObject({ outcome: "pass", message: 'name "lcm" matches its selection through the general-plugin path (directory "hermes-lcm", plugin.yaml "hermes-lcm" may differ there)' });
  });

  it("--seeds plays every run under each seed: the checks judge them all and the command line says so", async () => {
    const result = await ctxbench(["certify", "--engine", "truncate", "--checks", "ABC-2", "--seeds", "1,2", "--format", "json"]);
    expect(result.code, result.stderr).toBe(0);
    const parsed = parseResult(result.stdout);
    const json = parsed.certifications[0]!;
    expect(parsed.runInfo.command).toContain("--seeds 1,2");
    expect(json.checks.map((check) => check.id)).toEqual(["ABC-2/usage-echo"]);
    expect(json.checks[0]!.message).toContain("at each of seeds 1, 2");
  });

  it.each([
    [["certify", "--engine", "no-such-engine", "--checks", "ABC-2"], "no-such-engine"],
    [["certify", "--engine", "compressor", "--shard", "3/2"], "--shard"],
    [["certify", "--engine", "compressor", "--shard", "50/50"], "shard 50/50 holds no checks"],
    [["certify", "--engine", "compressor", "--seeds", "1,x"], "--seeds must be comma-separated integers"],
    [["certify", "--engine", "compressor", "--seed", "1", "--seeds", "2,3"], "give --seed or --seeds, not both"],
    [["certify", "--engine", "compressor", "--checks", "NOPE-9"], "NOPE-9"],
    [["certify", "--engine", "compressor", "--scenarios", "no-such-scenario"], 'no catalogue scenario "no-such-scenario"'],
    [["certify", "--engine", "compressor", "--scenarios"], "--scenarios needs a catalogue scenario name"],
    [["certify", "--engine", "compressor", "--checks", "CMP-1", "--scenarios", "long-session"], 'no selected check reads the scenario "long-session"'],
    [["certify", "--engine", "compressor", "--scenarios", "basic", "--shard", "1/2"], "give --scenarios or --shard, not both"],
    [["certify", "--engine", "compressor", "--expectations", "missing.yaml"], "missing.yaml"],
  ])("exits 2 on a usage or configuration error: %j", async (args, mention) => {
    const result = await ctxbench(args);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(mention);
  });

  it("shards join with ctxbench merge into the whole certification", async () => {
    const base = ["certify", "--engine", "truncate", "--checks", "ABC", "REG", "TOOL"];
    // The two shards of one run, and the second one again under another seed (not the same run).
    const shards = await Promise.all([
      ...[1, 2].map((index) => ctxbench([...base, "--shard", `${index}/2`, "--out", join(work, `shard-${index}`), "--format", "tap"])),
      ctxbench([...base, "--shard", "2/2", "--seed", "3", "--out", join(work, "shard-2-seed-3"), "--format", "tap"]),
    ]);
    for (const shard of shards) expect(shard.code, shard.stderr).toBe(0);
    const merged = await ctxbench(["merge", join(work, "shard-1", "result.json"), join(work, "shard-2", "result.json"), "--format", "json"]);
    expect(merged.code, merged.stderr).toBe(0);
    const result = parseResult(merged.stdout);
    expect(result.certifications).toHaveLength(1);
    expect(result.certifications[0]!.checks.map((check) => check.id).sort()).toEqual(
      ["ABC-1/base-class-and-members", "ABC-2/usage-echo", "ABC-3/odd-usage-accepted", "ABC-4/budget-integers", "ABC-5/compression-count", "ABC-6/should-compress-boolean", "ABC-7/threshold-answer", "REG-5/name-matches-selection", "REG-6/clone-independent", "TOOL-1/tool-schemas", "TOOL-2/json-results"],
    );
    const shard = (name: string) => join(work, name, "result.json");
    // A missing file; one shard of two (no certification); the same shard twice (no set); shards of two seeds (not one run).
    const [missing, half, twice, mixed] = await Promise.all([
      ctxbench(["merge", join(work, "nowhere.json")]),
      ctxbench(["merge", shard("shard-1")]),
      ctxbench(["merge", shard("shard-1"), shard("shard-1")]),
      ctxbench(["merge", shard("shard-1"), shard("shard-2-seed-3")]),
    ]);
    expect(missing.code).toBe(2);
    expect(half.code).toBe(2);
    expect(half.stderr).toContain('engine "truncate": shard 2/2 is missing (have 1/2)');
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('engine "truncate": shard 1/2 appears twice');
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain("different seeds");
  }, 180_000);
});
