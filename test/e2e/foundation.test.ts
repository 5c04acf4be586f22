import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const REPO = fileURLToPath(new URL("../../", import.meta.url));
const FIXTURE_USER = join(REPO, "test/fixtures/plugins/user");

// Children get a clean npm environment: variables vitest inherited from `npm test` would steer npm.
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith("npm_")));
env["NO_COLOR"] = "1";

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}
async function exec(file: string, args: string[], cwd: string): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(file, args, { cwd, env, timeout: 90_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    if (typeof failed.code !== "number") throw error;
    return { code: failed.code, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}
const ctxbench = (args: string[], cwd = REPO) => exec(process.execPath, [join(REPO, "bin/ctxbench.mjs"), ...args], cwd);

interface Listed {
  name: string;
  version: string | null;
  directory: string;
  bundled: boolean;
  load?: { ok: boolean; engineName: string | null; error: string | null };
}

describe("ctxbench installed into another project", () => {
  let project = "";

  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), "ctxbench-e2e-"));
    await writeFile(join(project, "package.json"), `${JSON.stringify({ name: "engine-author", private: true, type: "module" }, null, 2)}\n`);
    for (const plugin of ["ts-engine", "js-engine"]) await cp(join(FIXTURE_USER, plugin), join(project, "plugins", plugin), { recursive: true });
    // A local directory installs as a link with no download, so this works offline.
    // --ignore-scripts: a linked directory runs its prepare script, which would rebuild this checkout's
    // dist/ (when a source changed since the last build) under the tests running beside this one.
    const install = await exec("npm", ["install", "--no-audit", "--no-fund", "--offline", "--ignore-scripts", REPO], project);
    expect(install, install.stderr).toMatchObject({ code: 0 });
  });
  afterAll(async () => {
    if (project) await rm(project, { recursive: true, force: true });
  });

  it("lists a TypeScript and a JavaScript plugin that import ctxbench", async () => {
    const result = await exec("npx", ["--no", "ctxbench", "engines", "list", "--plugins", "plugins", "--json"], project);
    expect(result.code, result.stderr).toBe(0);
    const { engines } = JSON.parse(result.stdout) as { engines: Listed[] };
    expect(engines.filter((e) => !e.bundled).map((e) => [e.name, e.version, e.directory])).toEqual([
      ["js-engine", "0.3.0", join(project, "plugins/js-engine")],
      ["ts-engine", "1.2.0", join(project, "plugins/ts-engine")],
    ]);
    expect(engines.some((e) => e.bundled)).toBe(true);
  });

  it("imports both plugins through the installed package", async () => {
    const result = await exec("npx", ["--no", "ctxbench", "engines", "list", "--plugins", "plugins", "--json", "--load"], project);
    expect(result.code, result.stderr).toBe(0);
    const { engines } = JSON.parse(result.stdout) as { engines: Listed[] };
    const user = engines.filter((e) => !e.bundled);
    expect(user.map((e) => e.load)).toEqual([
      { ok: true, engineName: "js-engine", error: null },
      { ok: true, engineName: "ts-engine", error: null },
    ]);
  });

  it("certifies a plugin through the installed package, its checks run in worker processes", async () => {
    const result = await exec("npx", ["--no", "ctxbench", "certify", "--plugins", "plugins", "--engine", "ts-engine", "--checks", "ABC-1", "ABC-2", "--format", "json"], project);
    expect(result.code, result.stderr).toBe(0);
    // certify --format json prints the result document; its one certification is this engine's.
    const [certification] = (JSON.parse(result.stdout) as { certifications: Array<{ verdict: string; checks: Array<{ id: string; outcome: string }> }> }).certifications;
    if (certification === undefined) throw new Error("no certification in the result");
    expect(certification.verdict).toBe("certified");
    expect(certification.checks.map((check) => [check.id, check.outcome])).toEqual([
      ["ABC-1/base-class-and-members", "pass"],
      ["ABC-2/usage-echo", "pass"],
    ]);
  });

  it("exits 2 with one line for a --plugins directory that does not exist", async () => {
    const result = await exec("npx", ["--no", "ctxbench", "engines", "list", "--plugins", "nowhere"], project);
    expect(result).toEqual({ code: 2, stdout: "", stderr: `ctxbench: ${join(project, "nowhere")}: plugin directory does not exist\n` });
  });
});

describe("bin/ctxbench.mjs as a process", () => {
  it("exits 2 for an unknown command", async () => {
    const result = await ctxbench(["foo"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^ctxbench: Unknown command "foo"/);
    expect(result.stdout).toBe("");
  });

  it("prints the version", async () => {
    const result = await ctxbench(["--version"]);
    expect(result).toMatchObject({ code: 0, stdout: `${(await import("../../package.json", { with: { type: "json" } })).default.version}\n` });
  });

  it("runs the main job, which lists the engines", async () => {
    const result = await ctxbench(["main", "--step", "engines", "--json", "--plugins", FIXTURE_USER]);
    expect(result.code, result.stderr).toBe(0);
    const { engines } = JSON.parse(result.stdout) as { engines: Listed[] };
    expect(engines.map((e) => e.name)).toEqual(expect.arrayContaining(["ts-engine", "js-engine"]));
  });

  it("exits 2 for a malformed plugin.yaml, naming the file", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ctxbench-bad-"));
    try {
      await cp(join(FIXTURE_USER, "js-engine"), join(dir, "bad"), { recursive: true });
      await writeFile(join(dir, "bad/plugin.yaml"), "name: [broken\n");
      const result = await ctxbench(["engines", "list", "--plugins", dir]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`^ctxbench: ${join(dir, "bad/plugin.yaml")}: malformed YAML: .+\\n$`));
      expect(result.stdout).toBe("");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
