/**
 * ci/action.yml and the example workflows, run step by step (test/e2e/workflow-runner.ts) in a
 * scratch engine repository made as an author would: npm init, the ctxbench tarball, ctxbench init.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CHECKS } from "../../harness/conformance/checks/index.ts";
import { REPO } from "./support.ts";
import { checkoutCopy, exec, npmEnv, packedTarball, type Outcome } from "./package-support.ts";
import { newRunState, runAction, runWorkflow, type JobResult, type RunnerSetup } from "./workflow-runner.ts";

// The examples name ctxbench by a placeholder for where an author's copy is hosted.
const CTXBENCH_REPOSITORY = "OWNER/ctxbench";
const TIMEOUT = 600_000;
let checkout = "";
let engineRepo = "";
let matrixDir = "";
let env: NodeJS.ProcessEnv = {};
const ok = (outcome: Outcome) => expect(outcome.code, `${outcome.stdout}\n${outcome.stderr}`).toBe(0);

// An engine that forgets the completion tokens: ABC-2 fails, so the verdict is "not-certified".
const FORGETFUL_ENGINE = `const { ContextEngine } = require("ctxbench");
class Forgetful extends ContextEngine {
  name = "forgetful";
  update_from_response(usage) { this.last_prompt_tokens = usage.prompt_tokens; this.last_total_tokens = usage.total_tokens; }
  should_compress(tokens) { return this.threshold_tokens > 0 && (tokens ?? this.last_prompt_tokens) >= this.threshold_tokens; }
  compress(messages) { this.compression_count += 1; return messages; }
}
module.exports = { Forgetful };
`;

beforeAll(async () => {
  const [tarball, npm] = await Promise.all([packedTarball(), npmEnv()]);
  env = npm;
  checkout = checkoutCopy();
  engineRepo = await mkdtemp(join(tmpdir(), "ctxbench-engine-repo-"));
  ok(await exec("npm", ["init", "-y"], engineRepo, env));
  // The tarball inside the repository (package.json then says file:vendor/…, which a clone can install).
  await mkdir(join(engineRepo, "vendor"));
  await copyFile(tarball, join(engineRepo, "vendor/ctxbench.tgz"));
  ok(await exec("npm", ["install", "--save-dev", "./vendor/ctxbench.tgz"], engineRepo, env, TIMEOUT));
  ok(await exec("npx", ["--no", "ctxbench", "init", "my-engine"], engineRepo, env, TIMEOUT));
  await mkdir(join(engineRepo, "plugins/forgetful"));
  await writeFile(join(engineRepo, "plugins/forgetful/plugin.yaml"), "name: forgetful\ndescription: forgets completion tokens\nversion: 0.0.1\n");
  await writeFile(join(engineRepo, "plugins/forgetful/index.js"), FORGETFUL_ENGINE);
  // A fresh clone has no node_modules: the action installs the repository's dependencies itself.
  await rm(join(engineRepo, "node_modules"), { recursive: true, force: true });
}, TIMEOUT);

afterAll(async () => {
  for (const dir of [checkout, engineRepo, matrixDir]) if (dir) await rm(dir, { recursive: true, force: true });
});

// One cache for the file, as a repository has: the first run installs ctxbench, later ones restore it.
let cache: string | undefined;
const setup = (): RunnerSetup => {
  const state = newRunState(cache);
  cache = state.cache;
  return { workspace: engineRepo, ctxbenchCheckout: checkout, ctxbenchRepository: CTXBENCH_REPOSITORY, state, env };
};
const stepNamed = (job: JobResult, name: string) => job.steps.find((step) => step.name === name);

// The matrix test proves the sharding plumbing (matrix, shard input, artifacts, cache, merge), not
// the engine: examples/certify-matrix.yml as written but for a `checks:` input on the action, so
// the three shards certify the REG and ABC checks (five groups of probe runs: none is empty)
// instead of a third full certification; examples/certify.yml and package.test.ts certify in full.
const SHARDED_CHECKS = "REG ABC";
async function matrixOf(checks: string): Promise<string> {
  const example = readFileSync(join(REPO, "ci/examples/certify-matrix.yml"), "utf8");
  const shardInput = "          shard: ${{ matrix.shard }}\n";
  expect(example).toContain(shardInput);
  matrixDir = await mkdtemp(join(tmpdir(), "ctxbench-matrix-"));
  const file = join(matrixDir, "certify-matrix.yml");
  await writeFile(file, example.replace(shardInput, `${shardInput}          checks: ${checks}\n`));
  return file;
}

describe("ci/action.yml", () => {
  it("examples/certify.yml certifies the engine, writes the job summary and uploads the reports", async () => {
    const run = setup();
    const [job] = await runWorkflow(join(REPO, "ci/examples/certify.yml"), run);
    expect(job!.status, job!.steps.map((step) => `${step.name}: ${step.outcome}\n${step.log}`).join("\n")).toBe("success");
    // The action builds the compiled package from its checkout and runs it, never the sources.
    expect(stepNamed(job!, "Install ctxbench (compiled, production dependencies)")?.log).toMatch(/ctxbench: built dist\/[\s\S]*ctxbench: installed the compiled package in .* \(0\.1\.0\)/);
    const installed = readdirSync(run.state.cache).find((entry) => entry.startsWith("ctxbench-installed-"))!;
    const packageDir = join(run.state.cache, installed, "node_modules/ctxbench");
    expect(readdirSync(packageDir).sort()).toEqual(["README.md", "bin", "dist", "package.json", "require.cjs", "templates"]);
    expect(existsSync(join(run.state.cache, installed, "node_modules/typescript"))).toBe(false);
    expect(stepNamed(job!, "Install the engine repository's dependencies")?.log).toMatch(/added \d+ packages/);
    const certify = stepNamed(job!, "Certify my-engine")!;
    expect(certify.outputs).toMatchObject({ verdict: "certified", "exit-code": "0", artifact: "ctxbench-my-engine", result: join(job!.workspace, "ctxbench-results/result.json") });
    expect(job!.summary).toMatch(/ctxbench certify: my-engine/);
    expect(job!.summary).toMatch(/certified/i);
    expect(readdirSync(join(run.state.artifacts, "ctxbench-my-engine")).sort()).toEqual(["junit.xml", "report.md", "result.json"]);
  }, TIMEOUT);

  it("maps exit 2 to verdict=error and says why in the job summary (install-dependencies: false skips npm install)", async () => {
    // An engine that does not exist needs none of the repository's dependencies: the input saves this job an npm install.
    const job = await runAction({ engine: "no-such-engine", plugins: "plugins", "install-dependencies": "false" }, setup());
    expect(stepNamed(job, "Install the engine repository's dependencies")?.outcome).toBe("skipped");
    const certify = stepNamed(job, "Certify no-such-engine")!;
    expect(certify.outputs).toMatchObject({ verdict: "error", "exit-code": "2", artifact: "ctxbench-no-such-engine" });
    expect(certify.outputs["result"]).toBeUndefined();
    expect(job.status).toBe("failure");
    expect(stepNamed(job, "Verdict")!.log).toContain("::error::usage or configuration error");
    expect(job.summary).toMatch(/## ctxbench certify: no-such-engine\n\n\*\*error\*\* \(exit 2\)/);
    expect(job.summary).toContain('context engine "no-such-engine"');
  }, TIMEOUT);

  it("maps exit 1 to verdict=not-certified and uploads the repro files", async () => {
    const run = setup();
    const job = await runAction({ engine: "forgetful", plugins: "plugins", checks: "ABC-1 ABC-2" }, run);
    expect(stepNamed(job, "Certify forgetful")!.outputs).toMatchObject({ verdict: "not-certified", "exit-code": "1" });
    expect(job.status).toBe("failure");
    expect(readdirSync(join(run.state.artifacts, "ctxbench-forgetful/repro")).filter((file) => file.includes("ABC-2"))).toHaveLength(1);
  }, TIMEOUT);

  it("examples/certify-matrix.yml: three shards and the merge job, ctxbench restored from the cache in each, unique artifacts, one merged verdict", async () => {
    const run = setup();
    const jobs = await runWorkflow(await matrixOf(SHARDED_CHECKS), run);
    const failedSteps = jobs.flatMap((job) => job.steps.filter((step) => step.outcome === "failure").map((step) => `${job.job} ${job.matrix["shard"] ?? ""} ${step.name}:\n${step.log}`));
    expect(jobs.map((job) => [job.job, job.matrix["shard"] ?? null, job.status]), failedSteps.join("\n")).toEqual([
      ["certify", "1/3", "success"],
      ["certify", "2/3", "success"],
      ["certify", "3/3", "success"],
      ["merge", null, "success"],
    ]);
    // Every job, the merge job included, restores the install the first workflow cached under ci/cache-key.sh's key.
    expect(jobs.map((job) => stepNamed(job, "Install ctxbench (compiled, production dependencies)")!.outcome)).toEqual(["skipped", "skipped", "skipped", "skipped"]);
    expect(readdirSync(run.state.artifacts).sort()).toEqual(["ctxbench-my-engine-merged", "ctxbench-my-engine-shard-1-of-3", "ctxbench-my-engine-shard-2-of-3", "ctxbench-my-engine-shard-3-of-3"]);
    expect(jobs[3]!.summary).toMatch(/my-engine/);
    // The shards are disjoint and joined cover the selection: every selected check once, no other.
    const merged = JSON.parse(readFileSync(join(run.state.artifacts, "ctxbench-my-engine-merged/result.json"), "utf8")) as { certifications: Array<{ verdict: string; checks: Array<{ id: string }> }> };
    expect(merged.certifications.map((certification) => certification.verdict)).toEqual(["certified"]);
    const selected = CHECKS.filter((check) => SHARDED_CHECKS.split(" ").some((rule) => check.rule.startsWith(`${rule}-`))).map((check) => check.id);
    expect(merged.certifications[0]!.checks.map((check) => check.id).sort()).toEqual(selected.sort());
  }, TIMEOUT);

  // package.test.ts leaves these steps to this test for a commonjs project (this repository is one).
  it("the workflow ctxbench init writes runs as written: type-check, the conformance tests, the certification", async () => {
    const [job] = await runWorkflow(join(engineRepo, ".github/workflows/certify.yml"), setup());
    expect(job!.status, job!.steps.map((step) => `${step.name}: ${step.outcome}\n${step.log}`).join("\n")).toBe("success");
    expect(stepNamed(job!, "Type-check and run the conformance tests")?.log).toMatch(/Tests {2}\d+ passed \| \d+ skipped/);
    expect(stepNamed(job!, "Certify my-engine (the verdict goes to the job summary; exit 1 if not certified)")?.log).toMatch(/my-engine 0\.1\.0: CERTIFIED/);
    expect(job!.summary).toMatch(/ctxbench certify: my-engine/);
  }, TIMEOUT);
});
