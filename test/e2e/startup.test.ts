import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { childEnv, REPO } from "./support.ts";

/**
 * What a command the CLI refuses costs: every e2e test that spawns one pays the start-up, so the
 * cheap paths (help, a refused engine, a bad flag) load neither the checks and runner, nor the
 * reporters, the suites, the host or the store. The process runs with module hooks that note
 * every file it loads (test/fixtures/startup/); an eager import of any of those fails here.
 */

const work = mkdtempSync(join(tmpdir(), "ctxbench-e2e-startup-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Modules only a command that does its work needs (dist/ or the sources: the same paths). */
const HEAVY = /\/(harness\/(conformance|host|store|result|bench\/suites)\/|harness\/pipeline\/(certify|run|plan|compare|bench|assemble)\.|reports\/(?!formats\.))/;

let runs = 0;
function loadedBy(args: string[]): Promise<{ code: number; stderr: string; loaded: string[] }> {
  const log = join(work, `loads-${runs++}.txt`);
  const hooks = join(REPO, "test/fixtures/startup/record-loads.mjs");
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ["--import", hooks, join(REPO, "bin/ctxbench.mjs"), ...args], { cwd: work, env: childEnv({ CTXBENCH_LOAD_LOG: log }), timeout: 60_000 }, (error, _stdout, stderr) => {
      if (error && typeof error.code !== "number") return reject(error);
      const loaded = readFileSync(log, "utf8").split("\n").filter((line) => line !== "" && !line.includes("/node_modules/"));
      resolve({ code: error ? (error.code as number) : 0, stderr, loaded });
    });
  });
}

describe("a refused command loads none of the machinery its work needs", () => {
  it.each([
    [["--help"], 0],
    [["certify", "--engine", "nonexistent-engine"], 2],
    [["certify", "--engine", "truncate", "--bogus-flag"], 2],
    [["bench", "--engine", "nonexistent-engine"], 2],
    [["compare", "--bogus-flag"], 2],
    [["main", "--bogus-flag"], 2],
  ] as const)("ctxbench %j exits %i", async (args, code) => {
    const outcome = await loadedBy([...args]);
    expect(outcome.code, outcome.stderr).toBe(code);
    // The hooks saw the CLI itself load: an empty log would pass for the wrong reason.
    expect(outcome.loaded.some((url) => /harness\/cli\/main\.(js|ts)$/.test(url))).toBe(true);
    expect(outcome.loaded.filter((url) => HEAVY.test(url))).toEqual([]);
  });

  it("while a command that does its work loads them (the pattern above names real modules)", async () => {
    const outcome = await loadedBy(["report", join(work, "missing.json")]);
    expect(outcome.code).toBe(2);
    expect(outcome.loaded.filter((url) => HEAVY.test(url)).length).toBeGreaterThan(0);
  });
});

describe("a player loads what playing needs, not what only the parent does", () => {
  it("certify's players load no YAML parser (the parent reads the manifests), and a TypeScript engine's no engine protocol", async () => {
    const logs = mkdtempSync(join(work, "players-"));
    // Not below the run's working directory, which certify watches: the parent's own log grows
    // during the run (it loads what only the end needs while the players play).
    const cwd = mkdtempSync(join(work, "cwd-"));
    const hooks = join(REPO, "test/fixtures/startup/record-loads.mjs");
    const code = await new Promise<number>((resolve, reject) => {
      execFile(
        process.execPath,
        [join(REPO, "bin/ctxbench.mjs"), "certify", "--engine", "truncate", "--checks", "ABC-2"],
        { cwd, env: childEnv({ CTXBENCH_LOAD_LOG: join(logs, "loads-%p.txt"), NODE_OPTIONS: `--import ${hooks}` }), timeout: 120_000 },
        (error) => (error && typeof error.code !== "number" ? reject(error) : resolve(error ? (error.code as number) : 0)),
      );
    });
    expect(code).toBe(0);
    const loads = readdirSync(logs).map((file) => readFileSync(join(logs, file), "utf8").split("\n"));
    const players = loads.filter((urls) => urls.some((url) => /harness\/player\/entry\.(js|ts)$/.test(url)));
    const parents = loads.filter((urls) => urls.some((url) => /harness\/cli\/main\.(js|ts)$/.test(url)));
    expect(players.length).toBeGreaterThan(0);
    // The pattern names the real package: the parent, which parses plugin.yaml, loads it.
    expect(parents.some((urls) => urls.some((url) => url.includes("/node_modules/yaml/")))).toBe(true);
    for (const urls of players) expect(urls.filter((url) => url.includes("/node_modules/yaml/") || /harness\/engine-protocol\//.test(url))).toEqual([]);
  });
});
