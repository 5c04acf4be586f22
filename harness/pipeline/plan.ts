import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { UsageError } from "../util/errors.ts";
import { CHECKS, selectChecks } from "../conformance/checks/index.ts";
import { readExpectations, type Expectations } from "../conformance/expectations.ts";
import { parseShard, shardChecks, type Shard } from "../conformance/shard.ts";
import { DEFAULT_SEEDS, planSources, type SourceRef } from "../conformance/sources.ts";
import type { Check } from "../conformance/types.ts";
import { checkSetDigest } from "../conformance/verdict.ts";
import { selectEngine, type EngineSelection } from "../plugins/select.ts";
import { selectOptions, selectionFlags, type EngineRequest } from "./engine-request.ts";
import { DEFAULT_MAX_TIME_MS, defaultBounds, type Bounds } from "./bounds.ts";
import { DEFAULT_RUN_TIMEOUT_MS } from "../util/run-timeout.ts";
import { listScenarios } from "../../scenarios/catalogue/index.ts";

export { selectOptions, selectionFlags, type EngineRequest } from "./engine-request.ts";

export interface CertifyRequest extends EngineRequest {
  cwd: string;
  /** Check ids, rules or prefixes (default: all). */
  checks?: readonly string[];
  /** `i/n`. */
  shard?: string;
  seeds?: readonly number[];
  /** An expectations file (default `<plugin dir>/expectations.yaml` when it exists). */
  expectationsPath?: string;
  /** The run rewrites the expectations file (a missing one is created). */
  updateExpectations?: boolean;
  bounds?: Partial<Bounds>;
  /** Run the players in this process (for a debugger). */
  isolate?: boolean;
  /**
   * Whether the checks read their catalogue scenarios (default true, as certify does): false for
   * probes only, or the names of the scenarios to play (ctxbench/vitest's probe-only mode).
   */
  scenarios?: boolean | readonly string[];
  /** Replaces the bundled `engines/` root; for tests of the loader itself. */
  bundledRoot?: string;
  /**
   * The engine, when the caller has already selected it from this request (selectEngine(selectOptions(request))):
   * the CLI does, so that an engine it refuses never loads the checks.
   */
  selection?: EngineSelection;
}

export interface ExpectationsPlan {
  /** The file read, or null. */
  path: string | null;
  entries: Expectations;
  warnings: string[];
  /**
   * Expectations beside each directory the engine may come from (general-plugin resolution picks
   * one in the player); read and checked now, so a malformed one stops the command before work.
   */
  byLocation: ReadonlyMap<string, { path: string; entries: Expectations; warnings: string[] }>;
  /** Where `--update-expectations` writes, when asked: the file given, else beside the plugin. */
  update: boolean;
}

export interface CertificationPlan {
  cwd: string;
  selection: EngineSelection;
  /** The selection flags as typed (for the commands a result and its repros print). */
  flags: string[];
  /** `--checks` as given (empty: all). */
  checkSelectors: string[];
  /** The catalogue scenarios the checks were limited to (`--scenarios`), or null for every one they read. */
  scenarioSelectors: string[] | null;
  checks: Check[];
  seeds: number[];
  sources: SourceRef[];
  shard: Shard | null;
  /** checkSetDigest() of the selected checks before sharding: shards of one run share it (merge joins on it). */
  checkSetDigest: string;
  bounds: Bounds;
  expectations: ExpectationsPlan;
  isolate: boolean;
  /** Whether the checks read their scenarios (false: probes only). */
  withScenarios: boolean;
}

/**
 * Plan a certification: the engine from discovery (no engine code runs), the checks and shard,
 * the runs they read at every seed, the bounds, the expectations. Every problem with the request
 * is a UsageError here, before any work starts.
 */
export async function planCertification(request: CertifyRequest): Promise<CertificationPlan> {
  const seeds = [...(request.seeds ?? DEFAULT_SEEDS)];
  if (seeds.length === 0 || seeds.some((seed) => !Number.isSafeInteger(seed))) throw new UsageError(`seeds must be integers, got ${JSON.stringify(request.seeds)}`);
  const checks = planChecks(request.checks ?? [], request.shard);
  const scenarios = request.scenarios ?? true;
  // A shard's result is joined with the others' on the check set alone: every shard must have played the same scenarios.
  if (Array.isArray(scenarios) && checks.shard !== null) throw new UsageError("give --scenarios or --shard, not both: merge joins shards that played every scenario of their checks");
  if (Array.isArray(scenarios)) checks.checks = onlyScenarios(checks.checks, scenarios);
  const withScenarios = scenarios !== false;
  const selection = request.selection ?? (await selectEngine(selectOptions(request)));
  const bounds = defaultBounds(request.bounds);
  assertBounds(bounds);
  return {
    cwd: request.cwd,
    selection,
    flags: selectionFlags(request, selection.spec.selection),
    checkSelectors: [...(request.checks ?? [])],
    scenarioSelectors: Array.isArray(scenarios) ? [...scenarios] : null,
    checks: checks.checks,
    seeds,
    sources: planSources(checks.checks, seeds, withScenarios),
    shard: checks.shard,
    checkSetDigest: checks.digest,
    bounds,
    expectations: planExpectations(request, selection),
    isolate: request.isolate ?? true,
    withScenarios,
  };
}

/** The checks reading only the catalogue scenarios named (each keeps its probes). */
function onlyScenarios(checks: readonly Check[], names: readonly string[]): Check[] {
  const known = new Set(listScenarios().map((scenario) => scenario.name));
  const unknown = names.filter((name) => !known.has(name));
  if (unknown.length > 0) throw new UsageError(`no catalogue scenario ${unknown.map((name) => `"${name}"`).join(", ")}; see ctxbench scenarios list`);
  // A name none of the checks reads would play nothing and judge nothing: say so instead of a quiet pass.
  const unread = names.filter((name) => !checks.some((check) => check.scenarios.includes(name)));
  if (unread.length > 0) throw new UsageError(`no selected check reads the scenario${unread.length > 1 ? "s" : ""} ${unread.map((name) => `"${name}"`).join(", ")}; ctxbench checks list shows what each check reads`);
  const wanted = new Set(names);
  return checks.map((check) => ({ ...check, scenarios: check.scenarios.filter((name) => wanted.has(name)) }));
}

function planChecks(selectors: readonly string[], shardText: string | undefined): { checks: Check[]; shard: Shard | null; digest: string } {
  const unmatched = selectors.filter((selector) => selectChecks([selector]).length === 0);
  if (unmatched.length > 0) throw new UsageError(`no check matches ${unmatched.map((s) => `"${s}"`).join(", ")}; see the check ids in harness/conformance/checks`);
  const shard = shardText === undefined ? null : parseShard(shardText);
  if (shardText !== undefined && shard === null) throw new UsageError(`--shard must be i/n with 1 <= i <= n, got "${shardText}"`);
  const selected = selectChecks(selectors);
  const checks = shard ? shardChecks(selected, shard) : selected;
  if (shard !== null && checks.length === 0) throw new UsageError(`shard ${shard.index}/${shard.count} holds no checks: the selection splits into fewer than ${shard.count} shards`);
  return { checks, shard, digest: checkSetDigest(selected) };
}

export function assertBounds(bounds: Bounds): void {
  const limit = 2 ** 31 - 1;
  for (const [flag, value] of [["--timeout", bounds.timeoutMs], ["--max-time", bounds.maxTimeMs], ["the load bound", bounds.loadTimeoutMs]] as const) {
    if (!(value > 0) || value > limit) throw new UsageError(`${flag} must be a positive number of ms up to ${limit}, got ${value}`);
  }
  if (!Number.isInteger(bounds.players) || bounds.players < 1) throw new UsageError(`the number of players must be a positive integer, got ${bounds.players}`);
}

function planExpectations(request: CertifyRequest, selection: EngineSelection): ExpectationsPlan {
  const known = CHECKS.map((check) => check.id);
  const read = (path: string) => {
    const { expectations, warnings } = readExpectations(path, known);
    return { path, entries: expectations, warnings };
  };
  const update = request.updateExpectations === true;
  if (request.expectationsPath !== undefined) {
    const path = resolve(request.cwd, request.expectationsPath);
    if (!existsSync(path)) {
      if (!update) throw new UsageError(`expectations file ${path} does not exist`);
      return { path, entries: new Map(), warnings: [], byLocation: new Map(), update };
    }
    return { ...read(path), byLocation: new Map(), update };
  }
  const byLocation = new Map<string, { path: string; entries: Expectations; warnings: string[] }>();
  for (const candidate of selection.spec.candidates) {
    if (candidate.path === "module") continue;
    const path = join(candidate.location, "expectations.yaml");
    if (existsSync(path)) byLocation.set(candidate.location, read(path));
  }
  return { path: null, entries: new Map(), warnings: [], byLocation, update };
}

/**
 * The flags beyond the selection that change what a run finds: bounds other than the defaults (a
 * tighter --timeout turns passes into timeouts), --no-isolate, and an expectations file named on the
 * command line. Recorded commands carry them so that pasting one reproduces the run.
 */
export function runShapingFlags(options: { bounds?: Partial<Pick<Bounds, "timeoutMs" | "maxTimeMs">>; isolate?: boolean; expectationsPath?: string | null }): string[] {
  const flags: string[] = [];
  const timeoutMs = options.bounds?.timeoutMs ?? DEFAULT_RUN_TIMEOUT_MS;
  const maxTimeMs = options.bounds?.maxTimeMs ?? DEFAULT_MAX_TIME_MS;
  if (timeoutMs !== DEFAULT_RUN_TIMEOUT_MS) flags.push("--timeout", String(timeoutMs));
  if (maxTimeMs !== DEFAULT_MAX_TIME_MS) flags.push("--max-time", String(maxTimeMs / 1000));
  if (options.isolate === false) flags.push("--no-isolate");
  if (options.expectationsPath !== undefined && options.expectationsPath !== null) flags.push("--expectations", options.expectationsPath);
  return flags;
}

/** A command line as a shell reads it: arguments quoted where they need it. */
export function shellLine(words: readonly string[]): string {
  return words.map((word) => (/^[\w./@:=,+-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`)).join(" ");
}
