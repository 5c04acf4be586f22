/**
 * The fault suite's figures, measured: runs the fault-suite test files with vitest's JSON
 * reporter, reads what each test recorded about its fault (`task.meta.fault`, see
 * fault-meta.d.ts) and prints one table row per suite: faults tried, the outcomes observed, the
 * slowest containment against its bound, processes killed and rows lost. The README's table is
 * this script's output.
 *
 *   npx tsx test/faults/figures.ts [--json] [FILE…]
 *
 * Exit 1 when a fault test failed or a recorded row was lost; the table is printed either way.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { FaultFigure } from "./fault-meta.ts";

const REPO = fileURLToPath(new URL("../../", import.meta.url));

/** The tests that try faults on purpose and record them. */
export const FAULT_SUITE_FILES = ["harness/cli/bad-input.test.ts", "test/e2e/bad-input.test.ts", "test/e2e/faults.test.ts", "harness/store/reliability.test.ts"];

interface AssertionResult {
  fullName: string;
  status: string;
  duration?: number;
  meta?: { fault?: FaultFigure; faults?: FaultFigure[] };
}

export interface SuiteFigures {
  suite: string;
  faultsTried: number;
  passed: number;
  outcomes: Record<string, number>;
  slowestSeconds: number | null;
  boundSeconds: number | null;
  kills: number;
  rowsLost: number;
}

/** Folds the recorded faults into one row per suite, in the order the suites first appear. */
export function figuresOf(results: readonly AssertionResult[]): SuiteFigures[] {
  const bySuite = new Map<string, SuiteFigures>();
  for (const result of results) {
    for (const fault of [...(result.meta?.fault !== undefined ? [result.meta.fault] : []), ...(result.meta?.faults ?? [])]) fold(bySuite, result, fault);
  }
  return [...bySuite.values()];
}

function fold(bySuite: Map<string, SuiteFigures>, result: AssertionResult, fault: FaultFigure): void {
  const row = bySuite.get(fault.suite) ?? { suite: fault.suite, faultsTried: 0, passed: 0, outcomes: {}, slowestSeconds: null, boundSeconds: null, kills: 0, rowsLost: 0 };
  row.faultsTried += 1;
  if (result.status === "passed") row.passed += 1;
  row.outcomes[fault.outcome] = (row.outcomes[fault.outcome] ?? 0) + 1;
  if (fault.seconds !== undefined) row.slowestSeconds = Math.max(row.slowestSeconds ?? 0, fault.seconds);
  if (fault.boundSeconds !== undefined) row.boundSeconds = Math.max(row.boundSeconds ?? 0, fault.boundSeconds);
  row.kills += fault.kills ?? 0;
  row.rowsLost += fault.rowsLost ?? 0;
  bySuite.set(fault.suite, row);
}

export function markdownTable(rows: readonly SuiteFigures[]): string {
  const lines = [
    "| suite | faults tried | passed | outcomes | slowest (bound) | kills survived | rows lost |",
    "| --- | --- | --- | --- | --- | --- | --- |",
  ];
  const total = { faults: 0, passed: 0, kills: 0, lost: 0 };
  for (const row of rows) {
    const outcomes = Object.entries(row.outcomes)
      .map(([outcome, count]) => `${outcome} ×${count}`)
      .join("; ");
    const slowest = row.slowestSeconds === null ? "–" : `${row.slowestSeconds.toFixed(1)} s${row.boundSeconds === null ? "" : ` (${row.boundSeconds} s)`}`;
    const killed = row.kills > 0;
    lines.push(`| ${row.suite} | ${row.faultsTried} | ${row.passed} | ${outcomes} | ${slowest} | ${killed ? row.kills : "–"} | ${killed ? row.rowsLost : "–"} |`);
    total.faults += row.faultsTried;
    total.passed += row.passed;
    total.kills += row.kills;
    total.lost += row.rowsLost;
  }
  lines.push(`| **all** | **${total.faults}** | **${total.passed}** | | | **${total.kills}** | **${total.lost}** |`);
  return `${lines.join("\n")}\n`;
}

function main(argv: string[]): number {
  const json = argv.includes("--json");
  const files = argv.filter((arg) => arg !== "--json");
  const dir = mkdtempSync(join(tmpdir(), "ctxbench-fault-figures-"));
  try {
    const output = join(dir, "vitest.json");
    const run = spawnSync(process.execPath, [join(REPO, "node_modules/vitest/vitest.mjs"), "run", "--reporter=json", `--outputFile=${output}`, ...(files.length > 0 ? files : FAULT_SUITE_FILES)], {
      cwd: REPO,
      stdio: ["ignore", "ignore", "inherit"],
    });
    let report: { testResults: Array<{ assertionResults: AssertionResult[] }> };
    try {
      report = JSON.parse(readFileSync(output, "utf8")) as typeof report;
    } catch (error) {
      process.stderr.write(`fault figures: vitest wrote no report (exit ${run.status}): ${(error as Error).message}\n`);
      return 1;
    }
    const results = report.testResults.flatMap((file) => file.assertionResults);
    const rows = figuresOf(results);
    process.stdout.write(json ? `${JSON.stringify(rows, null, 2)}\n` : markdownTable(rows));
    const failed = results.filter((result) => result.status === "failed");
    for (const result of failed) process.stderr.write(`failed: ${result.fullName}\n`);
    return failed.length > 0 || rows.some((row) => row.rowsLost > 0) || run.status !== 0 ? 1 : 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main(process.argv.slice(2));
