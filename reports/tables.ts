/** Benchmark results as plain tables (strings only), shared by the terminal, markdown and html formats. */
import { findBenchSuite } from "../harness/bench/registry.ts";
import { goalBound, RERUN_ADVICE, type Goal } from "../harness/bench/goals.ts";
import type { Table } from "../harness/bench/suite.ts";
import { exact, withInterval } from "../harness/util/format.ts";
import type { ResultJson } from "../harness/result/index.ts";

export type { Table } from "../harness/bench/suite.ts";
export { NOISY_MARK } from "../harness/bench/notes.ts";

export function goalStatusText(goal: Goal): string {
  return goal.status === "met" ? "met" : goal.status === "missed" ? "MISSED" : RERUN_ADVICE;
}

function goalMeasured(goal: Goal): string {
  return goal.interval === null ? exact(goal.measured, goal.unit) : withInterval({ value: goal.measured, ...goal.interval }, goal.unit);
}

/** The goals of the engines' figures, or of the harness's own (engine null): each in its own section. */
function goalsTable(result: ResultJson, whose: "engines" | "harness"): Table | null {
  const goals = result.benchmarks.flatMap((suite) => suite.goals.map((goal) => ({ suite: suite.suite, goal }))).filter(({ goal }) => (goal.engine === null) === (whose === "harness"));
  if (goals.length === 0) return null;
  const rows = goals.map(({ suite, goal }) => [suite, ...(whose === "engines" ? [goal.engine!] : []), goal.description, goalMeasured(goal), `${goalBound(goal)} ${exact(goal.limit, goal.unit)}`, goalStatusText(goal)]);
  const reasons = goals.filter(({ goal }) => goal.reason !== undefined).map(({ goal }) => `${goal.id}: ${goal.reason}.`);
  return {
    id: whose === "engines" ? "goals" : "harness-goals",
    title: whose === "engines" ? "Goals" : "Goals of the harness",
    headers: ["Suite", ...(whose === "engines" ? ["Engine"] : []), "Goal", "Measured (95 % CI)", "Limit", "Status"],
    rows,
    notes: ["A timed goal is met only when its whole interval is within the limit and the run was quiet.", ...reasons],
  };
}

/** Every suite's own tables, as its file draws them. */
function suiteTables(result: ResultJson): Table[] {
  return result.benchmarks.flatMap((suite) => findBenchSuite(suite.suite)?.tables(suite) ?? []);
}

/** The engines' tables (each suite's file says which of its tables are the harness's), then the engines' goals. */
export function benchmarkTables(result: ResultJson): Table[] {
  const goals = goalsTable(result, "engines");
  return [...suiteTables(result).filter((table) => table.harness !== true), ...(goals ? [goals] : [])];
}

/** The harness section: store and host figures and their goals, not repeated per engine. */
export function harnessTables(result: ResultJson): Table[] {
  const goals = goalsTable(result, "harness");
  return [...suiteTables(result).filter((table) => table.harness === true), ...(goals ? [goals] : [])];
}

/** What the harness section says before its tables. */
export const HARNESS_NOTE = "The reference host and its SQLite session store, measured once for the run: these figures are the harness's, the same whichever engine is chosen.";

/** The machine and the run, as label/value pairs. */
export function runInfoPairs(result: ResultJson): [string, string][] {
  const info = result.runInfo;
  return [
    ["Tool", `${info.tool.name} ${info.tool.version}`],
    ["Node", info.node],
    ["OS", info.os],
    ["CPU", `${info.cpu} (${info.cores} cores)`],
    ["Git", info.gitSha ?? "not a git checkout"],
    ["Seed", String(info.seed)],
    ["Command", info.command],
    ["Engines", info.engines.map((engine) => `${engine.name} ${engine.version}`).join(", ") || "none"],
  ];
}
