import { existsSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { CHECKS, selectChecks } from "../conformance/checks/index.ts";
import { readExpectations, type Expectations } from "../conformance/expectations.ts";
import type { Check } from "../conformance/types.ts";
import { listScenarios } from "../../scenarios/catalogue/index.ts";

export interface ConformanceOptions {
  /**
   * Also play the catalogue scenarios the checks read, as `ctxbench certify` does: `true` for all
   * of them, or a list of names. Default: probes only (small deterministic drivers of each hook),
   * which runs in well under a second.
   */
  scenarios?: boolean | readonly string[];
  /** Seeds of every scenario and probe (default `[1]`); each seed is its own group of tests. */
  seeds?: readonly number[];
  /** Check ids, rules or prefixes, as `certify --checks` takes them (default: every check). */
  checks?: readonly string[];
  /** The plugin directory (absolute, a file URL, or relative to the working directory): REG-5 compares its plugin.yaml's name, and its expectations.yaml applies. */
  plugin?: string | URL;
  /** The name the engine is selected by (default: the plugin directory's name, else the engine's own name). */
  name?: string;
  /** An expectations file (default: `<plugin>/expectations.yaml` when present). */
  expectations?: string | URL;
  /** `"warn"` (default): an unexpected SHOULD outcome is an annotation on a passing test, as certify treats it; `"fail"` fails the test. */
  should?: "warn" | "fail";
  /** Limit of one scenario or probe run, in ms (default 20 s). */
  timeoutMs?: number;
}

/** What describeConformance runs: the checks (each reading the sources of this run), seeds and expectations. */
export interface ConformancePlan {
  checks: Check[];
  withScenarios: boolean;
  seeds: number[];
  pluginDirectory: string | null;
  selectedName: string | null;
  expectations: Expectations;
  should: "warn" | "fail";
  timeoutMs: number | undefined;
}

/** Options → plan, checked up front so a typo fails the test file at collection with one clear message. */
export function planConformance(options: ConformanceOptions, cwd = process.cwd()): ConformancePlan {
  const selectors = options.checks ?? [];
  const unmatched = selectors.filter((selector) => selectChecks([selector]).length === 0);
  if (unmatched.length > 0) throw new Error(`describeConformance: no check matches ${unmatched.map((s) => `"${s}"`).join(", ")}`);
  const seeds = [...(options.seeds ?? [1])];
  const badSeed = seeds.find((seed) => !Number.isSafeInteger(seed));
  if (seeds.length === 0 || badSeed !== undefined) throw new Error(`describeConformance: seeds must be a non-empty list of integers, got ${JSON.stringify(options.seeds)}`);

  let checks = selectChecks(selectors);
  const scenarios = options.scenarios ?? false;
  if (Array.isArray(scenarios)) {
    const known = new Set(listScenarios().map((scenario) => scenario.name));
    const unknown = scenarios.filter((name) => !known.has(name));
    if (unknown.length > 0) throw new Error(`describeConformance: no catalogue scenario ${unknown.map((s) => `"${s}"`).join(", ")}`);
    const wanted = new Set(scenarios);
    checks = checks.map((check) => ({ ...check, scenarios: check.scenarios.filter((name) => wanted.has(name)) }));
  }

  const pluginDirectory = options.plugin === undefined ? null : toPath(options.plugin, cwd);
  if (pluginDirectory !== null && !existsSync(join(pluginDirectory, "plugin.yaml"))) throw new Error(`describeConformance: ${pluginDirectory} holds no plugin.yaml`);
  const expectationsFile = options.expectations !== undefined ? toPath(options.expectations, cwd) : pluginDirectory === null ? null : join(pluginDirectory, "expectations.yaml");
  let expectations: Expectations = new Map();
  if (expectationsFile !== null && (options.expectations !== undefined || existsSync(expectationsFile))) {
    expectations = readExpectations(expectationsFile, CHECKS.map((check) => check.id)).expectations;
  }
  return {
    checks,
    withScenarios: scenarios !== false,
    seeds,
    pluginDirectory,
    selectedName: options.name ?? null,
    expectations,
    should: options.should ?? "warn",
    timeoutMs: options.timeoutMs,
  };
}

function toPath(value: string | URL, cwd: string): string {
  if (value instanceof URL || value.startsWith("file:")) return fileURLToPath(value);
  return isAbsolute(value) ? value : resolve(cwd, value);
}
