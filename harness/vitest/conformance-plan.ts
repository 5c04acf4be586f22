import { existsSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { selectChecks } from "../conformance/checks/index.ts";
import type { Check } from "../conformance/types.ts";
import type { CertifyRequest } from "../pipeline/plan.ts";
import { listScenarios } from "../../scenarios/catalogue/index.ts";

export interface ConformanceOptions {
  /**
   * Also play the catalogue scenarios the checks read, as `ctxbench certify` does: `true` for all
   * of them, or a list of names. Default: probes only (small deterministic drivers of each hook).
   */
  scenarios?: boolean | readonly string[];
  /** Seeds of every scenario and probe (default `[1]`); each seed is its own group of tests. */
  seeds?: readonly number[];
  /** Check ids, rules or prefixes, as `certify --checks` takes them (default: every check). */
  checks?: readonly string[];
  /** The name the engine is selected by, as `certify --engine` (default: the plugin directory's name). */
  name?: string;
  /** An expectations file (default: `<plugin>/expectations.yaml` when present), as `certify --expectations`. */
  expectations?: string | URL;
  /** `"warn"` (default): an unexpected SHOULD outcome is an annotation on a passing test, as certify treats it; `"fail"` fails the test. */
  should?: "warn" | "fail";
  /** Limit of one scenario or probe run, in ms (default 20 s), as `certify --timeout`. */
  timeoutMs?: number;
  /** The Python interpreter for a Python plugin (default python3 on PATH), as `certify --python`. */
  python?: string;
  /** `false` runs the player in the test's own process (for a debugger), as `certify --no-isolate`. */
  isolate?: boolean;
}

/** What describeConformance runs: the certify request of each seed, and the checks its tests are named by. */
export interface ConformancePlan {
  pluginDirectory: string;
  selectedName: string;
  checks: Check[];
  seeds: number[];
  should: "warn" | "fail";
  /** The certification of one seed, exactly as `ctxbench certify` with these flags would plan it. */
  request(seed: number): CertifyRequest;
}

/**
 * Plugin and options → plan, checked up front so a typo fails the test file at collection with one
 * clear message. The engine is selected as `certify --plugins <parent> --engine <name>` selects it.
 */
export function planConformance(plugin: string | URL, options: ConformanceOptions = {}, cwd = process.cwd()): ConformancePlan {
  if (typeof plugin === "function") {
    throw new TypeError("describeConformance takes the plugin directory (e.g. new URL(\".\", import.meta.url)), not an engine factory: the engine runs in a player process, as ctxbench certify runs it");
  }
  const pluginDirectory = toPath(plugin, cwd);
  if (!existsSync(pluginDirectory) || !statSync(pluginDirectory).isDirectory()) throw new Error(`describeConformance: ${pluginDirectory} is not a directory`);
  if (!existsSync(resolve(pluginDirectory, "plugin.yaml"))) throw new Error(`describeConformance: ${pluginDirectory} holds no plugin.yaml`);

  const selectors = [...(options.checks ?? [])];
  const unmatched = selectors.filter((selector) => selectChecks([selector]).length === 0);
  if (unmatched.length > 0) throw new Error(`describeConformance: no check matches ${unmatched.map((s) => `"${s}"`).join(", ")}`);
  const seeds = [...(options.seeds ?? [1])];
  if (seeds.length === 0 || seeds.some((seed) => !Number.isSafeInteger(seed))) throw new Error(`describeConformance: seeds must be a non-empty list of integers, got ${JSON.stringify(options.seeds)}`);
  const scenarios = options.scenarios ?? false;
  if (Array.isArray(scenarios)) {
    const known = new Set(listScenarios().map((scenario) => scenario.name));
    const unknown = scenarios.filter((name) => !known.has(name));
    if (unknown.length > 0) throw new Error(`describeConformance: no catalogue scenario ${unknown.map((s) => `"${s}"`).join(", ")}`);
  }

  const selectedName = options.name ?? basename(pluginDirectory);
  const pluginsRoot = dirname(pluginDirectory);
  const expectationsPath = options.expectations === undefined ? undefined : toPath(options.expectations, cwd);
  const base: Omit<CertifyRequest, "seeds"> = {
    cwd,
    engine: selectedName,
    // As the user would type it: relative to the working directory when inside it (the replay commands print it).
    pluginDirs: [displayPath(pluginsRoot, cwd)],
    checks: selectors,
    scenarios: Array.isArray(scenarios) ? [...scenarios] : scenarios !== false,
    isolate: options.isolate ?? true,
    ...(expectationsPath !== undefined ? { expectationsPath } : {}),
    ...(options.python !== undefined ? { python: options.python } : {}),
    ...(options.timeoutMs !== undefined ? { bounds: { timeoutMs: options.timeoutMs } } : {}),
  };
  return {
    pluginDirectory,
    selectedName,
    checks: selectChecks(selectors),
    seeds,
    should: options.should ?? "warn",
    request: (seed) => ({ ...base, seeds: [seed] }),
  };
}

function toPath(value: string | URL, cwd: string): string {
  if (value instanceof URL || value.startsWith("file:")) return fileURLToPath(value);
  return isAbsolute(value) ? value : resolve(cwd, value);
}

function displayPath(path: string, cwd: string): string {
  const inside = relative(cwd, path);
  return inside === "" ? "." : inside.startsWith("..") || isAbsolute(inside) ? path : inside;
}
