/**
 * Runs GitHub Actions workflows and composite actions on this machine, as far as ctxbench's CI
 * files need (`act` is not available): `run` steps in bash with GitHub's environment files
 * (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_ENV), `if:` and `${{ }}` expressions over inputs,
 * steps, matrix, github, runner and env, a matrix, `needs`, and local stand-ins for the few
 * actions used: checkout, setup-node, cache, upload-artifact, download-artifact. Anything else
 * it meets is an error, so a workflow cannot pass here by using what is not simulated.
 */
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import { parse } from "yaml";

export interface RunnerSetup {
  /** The repository the workflow runs in (copied for each job as its GITHUB_WORKSPACE). */
  workspace: string;
  /** Where `uses: OWNER/REPO/ci@REF` and `checkout` of that repository find ctxbench: a checkout of it (copied for each job). */
  ctxbenchCheckout: string;
  /** The `owner/repo` the workflows name ctxbench by. */
  ctxbenchRepository: string;
  /** Shared by the jobs of one run: artifacts and the cache. */
  state: RunState;
  env: NodeJS.ProcessEnv;
}

export interface RunState {
  artifacts: string;
  cache: string;
}

/** A workflow run's artifact store; the cache may be shared with other runs (as a repository's is). */
export function newRunState(cache?: string): RunState {
  const root = mkdtempSync(join(tmpdir(), "ctxbench-actions-"));
  mkdirSync(join(root, "artifacts"));
  if (cache === undefined) mkdirSync(join(root, "cache"));
  return { artifacts: join(root, "artifacts"), cache: cache ?? join(root, "cache") };
}

export interface StepRecord {
  name: string;
  outcome: "success" | "failure" | "skipped";
  outputs: Record<string, string>;
  log: string;
}

export interface JobResult {
  job: string;
  matrix: Record<string, string>;
  status: "success" | "failure";
  steps: StepRecord[];
  summary: string;
  /** The job's copy of the repository (removed after the job). */
  workspace: string;
}

type StepOutcome = { ok: boolean; outputs: Record<string, string>; log: string };

type Step = Record<string, unknown> & { id?: string; name?: string; uses?: string; run?: string; if?: string; with?: Record<string, unknown>; env?: Record<string, unknown>; shell?: string; "working-directory"?: string };

interface Context {
  inputs: Record<string, string>;
  steps: Record<string, { outputs: Record<string, string>; outcome: string }>;
  matrix: Record<string, string>;
  github: Record<string, string>;
  runner: Record<string, string>;
  env: Record<string, string>;
  status: "success" | "failure";
}

/** Every job of a workflow file (matrix jobs expanded), in `needs` order. */
export async function runWorkflow(file: string, setup: RunnerSetup): Promise<JobResult[]> {
  const workflow = parse(readFileSync(file, "utf8")) as { jobs: Record<string, { needs?: string | string[]; if?: string; strategy?: { matrix?: Record<string, unknown[]> }; steps: Step[] }> };
  const results: JobResult[] = [];
  const done = new Set<string>();
  const pending = Object.keys(workflow.jobs);
  while (pending.length > 0) {
    const index = pending.findIndex((name) => [workflow.jobs[name]!.needs ?? []].flat().every((need) => done.has(need)));
    if (index < 0) throw new Error(`jobs ${pending.join(", ")} wait on each other`);
    const [name] = pending.splice(index, 1) as [string];
    const job = workflow.jobs[name]!;
    const needs = [job.needs ?? []].flat();
    const upstreamFailed = results.some((result) => needs.includes(result.job) && result.status === "failure");
    // The jobs of a matrix run at the same time, as on GitHub.
    const runs = expandMatrix(job.strategy?.matrix).filter((matrix) => {
      const context = newContext(setup.workspace, matrix, {});
      context.status = upstreamFailed ? "failure" : "success";
      // A job whose needs failed runs only if its condition asks for a status (always()).
      return evaluateCondition(job.if, context);
    });
    results.push(...(await Promise.all(runs.map((matrix) => runJob(name, matrix, job.steps, setup)))));
    done.add(name);
  }
  return results;
}

/** ctxbench's action with these inputs, as the only step of a job. */
export function runAction(inputs: Record<string, string>, setup: RunnerSetup): Promise<JobResult> {
  return runJob("action", {}, [{ name: "ctxbench", uses: `${setup.ctxbenchRepository}/ci@local`, with: inputs }], setup);
}

function expandMatrix(matrix: Record<string, unknown[]> | undefined): Array<Record<string, string>> {
  if (!matrix) return [{}];
  let combinations: Array<Record<string, string>> = [{}];
  for (const [key, values] of Object.entries(matrix)) combinations = combinations.flatMap((combination) => values.map((value) => ({ ...combination, [key]: String(value) })));
  return combinations;
}

function newContext(workspace: string, matrix: Record<string, string>, inputs: Record<string, string>): Context {
  return {
    inputs,
    steps: {},
    matrix,
    github: { workspace, action_path: "" },
    runner: { os: "Linux", temp: "" },
    env: {},
    status: "success",
  };
}

async function runJob(name: string, matrix: Record<string, string>, steps: Step[], setup: RunnerSetup): Promise<JobResult> {
  const files = mkdtempSync(join(tmpdir(), "ctxbench-job-"));
  const summaryFile = join(files, "summary.md");
  writeFileSync(summaryFile, "");
  // Every job starts from fresh copies of the repository and of ctxbench's checkout, as on GitHub.
  const withoutNodeModules = { recursive: true, filter: (source: string) => !/[\\/]node_modules$/.test(source) };
  const workspace = join(files, "workspace");
  const ctxbench = join(files, "_actions/ctxbench");
  cpSync(setup.workspace, workspace, withoutNodeModules);
  cpSync(setup.ctxbenchCheckout, ctxbench, withoutNodeModules);
  const job: JobState = { setup, workspace, ctxbench, files, summaryFile, records: [], postSteps: [], env: {} };
  const context = newContext(workspace, matrix, {});
  await runSteps(steps, context, job);
  for (const post of job.postSteps.reverse()) post(context.status);
  const result: JobResult = { job: name, matrix, status: context.status, steps: job.records, summary: readFileSync(summaryFile, "utf8"), workspace };
  rmSync(files, { recursive: true, force: true });
  return result;
}

interface JobState {
  setup: RunnerSetup;
  workspace: string;
  ctxbench: string;
  files: string;
  summaryFile: string;
  records: StepRecord[];
  postSteps: Array<(status: "success" | "failure") => void>;
  env: Record<string, string>;
}

async function runSteps(steps: Step[], context: Context, job: JobState, actionPath?: string): Promise<void> {
  for (const [index, step] of steps.entries()) {
    const name = step.name ? interpolate(step.name, context) : step.uses ?? `step ${index + 1}`;
    const id = step.id ?? `__step${index}`;
    if (!evaluateCondition(step.if, context)) {
      context.steps[id] = { outputs: {}, outcome: "skipped" };
      job.records.push({ name, outcome: "skipped", outputs: {}, log: "" });
      continue;
    }
    const { ok, outputs, log } = step.uses !== undefined ? await runUses(step, context, job, actionPath) : await runShell(step, context, job, actionPath);
    context.steps[id] = { outputs, outcome: ok ? "success" : "failure" };
    job.records.push({ name, outcome: ok ? "success" : "failure", outputs, log });
    if (!ok && step["continue-on-error"] !== true) context.status = "failure";
  }
}

async function runShell(step: Step, context: Context, job: JobState, actionPath: string | undefined): Promise<StepOutcome> {
  const output = join(job.files, `output-${job.records.length}`);
  const envFile = join(job.files, `env-${job.records.length}`);
  writeFileSync(output, "");
  writeFileSync(envFile, "");
  const script = interpolate(String(step.run), context);
  const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([key, value]) => [key, interpolate(String(value), context)]));
  const cwd = resolve(job.workspace, step["working-directory"] ? interpolate(step["working-directory"], context) : ".");
  const runnerTemp = join(job.files, "runner-temp");
  mkdirSync(runnerTemp, { recursive: true });
  const env = {
    ...job.setup.env,
    ...job.env,
    ...stepEnv,
    CI: "true",
    GITHUB_ACTIONS: "true",
    GITHUB_WORKSPACE: job.workspace,
    GITHUB_OUTPUT: output,
    GITHUB_ENV: envFile,
    GITHUB_STEP_SUMMARY: job.summaryFile,
    RUNNER_OS: "Linux",
    RUNNER_TEMP: runnerTemp,
    ...(actionPath ? { GITHUB_ACTION_PATH: actionPath } : {}),
  };
  // GitHub's bash: `bash --noprofile --norc -eo pipefail {0}` when named, `bash -e {0}` by default.
  const shell = step.shell === undefined ? ["-e"] : step.shell === "bash" ? ["--noprofile", "--norc", "-eo", "pipefail"] : unsupported(`shell ${step.shell}`);
  const result = await bash([...shell, "-c", script], cwd, env);
  for (const [key, value] of Object.entries(readKeyValues(envFile))) job.env[key] = value;
  return { ok: result.code === 0, outputs: readKeyValues(output), log: result.log };
}

/** `key=value` lines and `key<<DELIM … DELIM` blocks, as GitHub reads GITHUB_OUTPUT and GITHUB_ENV. */
function readKeyValues(file: string): Record<string, string> {
  const values: Record<string, string> = {};
  const lines = readFileSync(file, "utf8").split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const block = /^([^=<]+)<<(.+)$/.exec(line);
    if (block) {
      const end = lines.indexOf(block[2]!, i + 1);
      values[block[1]!] = lines.slice(i + 1, end).join("\n");
      i = end;
    } else if (line.includes("=")) {
      values[line.slice(0, line.indexOf("="))] = line.slice(line.indexOf("=") + 1);
    }
  }
  return values;
}

async function runUses(step: Step, context: Context, job: JobState, actionPath: string | undefined): Promise<StepOutcome> {
  const uses = interpolate(step.uses!, context);
  const inputs = Object.fromEntries(Object.entries(step.with ?? {}).map(([key, value]) => [key, interpolate(String(value), context)]));
  const { setup } = job;
  const action = uses.split("@")[0]!;
  if (action === "actions/setup-node") return { ok: true, outputs: { "node-version": process.version }, log: "" };
  if (action === "actions/checkout") {
    if (inputs["repository"] === undefined) return { ok: true, outputs: {}, log: "" };
    if (inputs["repository"] !== setup.ctxbenchRepository) unsupported(`checkout of ${inputs["repository"]}`);
    const target = resolve(job.workspace, inputs["path"] ?? ".");
    cpSync(setup.ctxbenchCheckout, target, { recursive: true, filter: (source) => !/[\\/]node_modules$/.test(source) });
    return { ok: true, outputs: {}, log: "" };
  }
  if (action === "actions/cache") return restoreCache(inputs, job);
  if (action === "actions/upload-artifact") return uploadArtifact(inputs, job);
  if (action === "actions/download-artifact") return downloadArtifact(inputs, job);
  const ctxbenchAction = `${setup.ctxbenchRepository}/ci`;
  const directory = action === ctxbenchAction ? join(job.ctxbench, "ci") : unsupported(`uses: ${uses}`);
  return runComposite(directory, inputs, job);
}

async function runComposite(directory: string, given: Record<string, string>, job: JobState): Promise<StepOutcome> {
  const action = parse(readFileSync(join(directory, "action.yml"), "utf8")) as {
    inputs?: Record<string, { required?: boolean; default?: string }>;
    outputs?: Record<string, { value: string }>;
    runs: { using: string; steps: Step[] };
  };
  if (action.runs.using !== "composite") unsupported(`an action using ${action.runs.using}`);
  const inputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.inputs ?? {})) {
    const value = given[name] ?? spec.default;
    if (value === undefined && spec.required) throw new Error(`input ${name} is required`);
    inputs[name] = value ?? "";
  }
  for (const name of Object.keys(given)) if (!(name in inputs)) throw new Error(`the action has no input ${name}`);
  const context = newContext(job.workspace, {}, inputs);
  context.github["action_path"] = directory;
  const first = job.records.length;
  await runSteps(action.runs.steps, context, job, directory);
  const outputs = Object.fromEntries(Object.entries(action.outputs ?? {}).map(([name, spec]) => [name, interpolate(spec.value, context)]));
  const log = job.records.slice(first).map((record) => record.log).join("");
  return { ok: context.status === "success", outputs, log };
}

function restoreCache(inputs: Record<string, string>, job: JobState): StepOutcome {
  const key = inputs["key"];
  const path = inputs["path"];
  if (!key || !path) throw new Error("actions/cache needs key and path");
  const stored = join(job.setup.state.cache, key.replace(/[^\w.-]/g, "_"));
  const target = resolve(job.workspace, path);
  if (existsSync(stored)) {
    cpSync(stored, target, { recursive: true, verbatimSymlinks: true });
    return { ok: true, outputs: { "cache-hit": "true" }, log: `restored ${key}\n` };
  }
  // Saved when the job ends, as the real action's post step does (only for a job that succeeded).
  job.postSteps.push((status) => {
    if (status !== "success" || !existsSync(target) || existsSync(stored)) return;
    const partial = `${stored}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    cpSync(target, partial, { recursive: true, verbatimSymlinks: true });
    try {
      renameSync(partial, stored); // first saver wins, as with a cache key on GitHub
    } catch {
      rmSync(partial, { recursive: true, force: true });
    }
  });
  return { ok: true, outputs: { "cache-hit": "false" }, log: `no cache for ${key}\n` };
}

function uploadArtifact(inputs: Record<string, string>, job: JobState): StepOutcome {
  const name = inputs["name"] || "artifact";
  const target = join(job.setup.state.artifacts, name);
  // upload-artifact v4 refuses a second artifact of the same name in one run.
  if (existsSync(target)) return { ok: false, outputs: {}, log: `an artifact named ${name} already exists\n` };
  const sources = (inputs["path"] ?? "").split("\n").map((entry) => entry.trim()).filter(Boolean).map((line) => resolve(job.workspace, line)).filter((path) => existsSync(path));
  if (sources.length === 0) return { ok: inputs["if-no-files-found"] !== "error", outputs: {}, log: `no files found for ${name}\n` };
  // As upload-artifact v4: paths are kept relative to their least common ancestor (a single directory's contents at the root).
  const root = sources.length === 1 && statSync(sources[0]!).isDirectory() ? sources[0]! : commonAncestor(sources.map((path) => dirname(path)));
  mkdirSync(target);
  for (const source of sources) cpSync(source, join(target, relative(root, source)), { recursive: true });
  return { ok: true, outputs: {}, log: `uploaded ${sources.length} path(s) as ${name}\n` };
}

function downloadArtifact(inputs: Record<string, string>, job: JobState): StepOutcome {
  const pattern = new RegExp(`^${(inputs["pattern"] ?? inputs["name"] ?? "*").replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`);
  const target = resolve(job.workspace, inputs["path"] ?? ".");
  const names = readdirSync(job.setup.state.artifacts).filter((name) => pattern.test(name));
  // With a pattern, each artifact goes into a directory of its name (merge-multiple: false).
  for (const name of names) cpSync(join(job.setup.state.artifacts, name), join(target, name), { recursive: true });
  return { ok: names.length > 0, outputs: {}, log: `downloaded ${names.join(", ")}\n` };
}

function commonAncestor(directories: string[]): string {
  let common = directories[0]!.split(sep);
  for (const directory of directories.slice(1)) {
    const parts = directory.split(sep);
    let i = 0;
    while (i < common.length && common[i] === parts[i]) i++;
    common = common.slice(0, i);
  }
  return common.join(sep) || sep;
}

/** bash with the given arguments; its exit code and its stdout and stderr, interleaved as written. */
function bash(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; log: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn("bash", args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let log = "";
    child.stdout.on("data", (chunk: Buffer) => (log += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (log += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolvePromise({ code: code ?? 1, log }));
  });
}

function unsupported(what: string): never {
  throw new Error(`the workflow runner does not simulate ${what}`);
}

/** `${{ expression }}` replaced by its value. */
export function interpolate(text: string, context: Context): string {
  return text.replace(/\$\{\{(.*?)\}\}/gs, (_match, expression: string) => stringify(evaluate(expression.trim(), context)));
}

function evaluateCondition(condition: string | undefined, context: Context): boolean {
  if (condition === undefined) return context.status === "success";
  const expression = condition.trim().replace(/^\$\{\{(.*)\}\}$/s, "$1").trim();
  const usesStatus = /\b(always|success|failure|cancelled)\(\)/.test(expression);
  const value = truthy(evaluate(expression, context));
  return usesStatus ? value : value && context.status === "success";
}

type Value = string | number | boolean | null;

/** The part of GitHub's expression language the CI files use: paths, literals, ==, !=, !, &&, ||, status functions. */
function evaluate(expression: string, context: Context): Value {
  const tokens = expression.match(/'(?:[^']|'')*'|==|!=|&&|\|\||!|\(|\)|[\w.-]+(?:\(\))?/g) ?? [];
  let position = 0;
  const peek = () => tokens[position];
  const next = () => tokens[position++];
  const primary = (): Value => {
    const token = next();
    if (token === undefined) throw new Error(`incomplete expression: ${expression}`);
    if (token === "(") {
      const value = or();
      next();
      return value;
    }
    if (token === "!") return !truthy(primary());
    if (token.startsWith("'")) return token.slice(1, -1).replace(/''/g, "'");
    if (/^\d+$/.test(token)) return Number(token);
    if (token === "true" || token === "false") return token === "true";
    if (token === "null") return null;
    if (token === "always()") return true;
    if (token === "success()") return context.status === "success";
    if (token === "failure()") return context.status === "failure";
    if (token === "cancelled()") return false;
    return lookup(token, context);
  };
  const comparison = (): Value => {
    let left = primary();
    while (peek() === "==" || peek() === "!=") {
      const operator = next();
      const right = primary();
      const equal = String(left ?? "") === String(right ?? "");
      left = operator === "==" ? equal : !equal;
    }
    return left;
  };
  const and = (): Value => {
    let left = comparison();
    while (peek() === "&&") {
      next();
      const right = comparison();
      left = truthy(left) ? right : left;
    }
    return left;
  };
  const or = (): Value => {
    let left = and();
    while (peek() === "||") {
      next();
      const right = and();
      left = truthy(left) ? left : right;
    }
    return left;
  };
  const value = or();
  if (position !== tokens.length) throw new Error(`the workflow runner cannot evaluate ${JSON.stringify(expression)}`);
  return value;
}

function lookup(path: string, context: Context): Value {
  const [root, ...rest] = path.split(".");
  let value: unknown = { inputs: context.inputs, steps: context.steps, matrix: context.matrix, github: context.github, runner: context.runner, env: context.env }[root!];
  if (value === undefined) throw new Error(`the workflow runner knows no context "${root}" (in ${path})`);
  for (const key of rest) value = value === null || typeof value !== "object" ? undefined : (value as Record<string, unknown>)[key];
  return value === undefined ? "" : (value as Value);
}

function truthy(value: Value): boolean {
  return value !== "" && value !== false && value !== null && value !== 0;
}

function stringify(value: Value): string {
  return value === null ? "" : String(value);
}
