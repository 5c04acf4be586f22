import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "../util/errors.ts";

/** One figure a baseline remembers: its value, its uncertainty, and which way is better. */
export interface BaselineFigure {
  value: number;
  /** Half-width of its confidence interval, relative to the value (0.03 = ±3 %). */
  relativeUncertainty: number;
  higherIsBetter: boolean;
}

export interface BaselineFile {
  schemaVersion: 1;
  machine: string;
  figures: Record<string, BaselineFigure>;
}

export interface Regression {
  key: string;
  baseline: number;
  current: number;
  /** How much worse, as a ratio (1.25 = 25 % worse). */
  worseBy: number;
  allowed: number;
}

/** A figure regresses when it is worse by more than max(noise floor, its combined uncertainty). */
export const NOISE_FLOOR = 0.1;

export function baselinePath(cwd: string, name: string): string {
  if (!/^[A-Za-z0-9._-]+$/.test(name) || name.includes("..")) {
    throw new UsageError(`baseline name "${name}" may use only letters, digits, ".", "_" and "-"`);
  }
  return join(cwd, ".ctxbench", "baselines", `${name}.json`);
}

export function saveBaseline(cwd: string, name: string, baseline: BaselineFile): string {
  const path = baselinePath(cwd, name);
  mkdirSync(join(cwd, ".ctxbench", "baselines"), { recursive: true });
  writeFileSync(path, `${JSON.stringify(baseline, null, 2)}\n`);
  return path;
}

export function loadBaseline(cwd: string, name: string): BaselineFile {
  const path = baselinePath(cwd, name);
  if (!existsSync(path)) throw new UsageError(`${path}: no baseline named "${name}" (save one with --save-baseline ${name})`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new UsageError(`${path}: not valid JSON (${(error as Error).message})`);
  }
  const file = parsed as Partial<BaselineFile>;
  if (file.schemaVersion !== 1 || typeof file.figures !== "object" || file.figures === null) {
    throw new UsageError(`${path}: not a ctxbench baseline (schemaVersion 1 with figures)`);
  }
  return file as BaselineFile;
}

/** Figures present in both that got worse beyond what noise explains. */
export function findRegressions(baseline: BaselineFile, current: Record<string, BaselineFigure>): Regression[] {
  const regressions: Regression[] = [];
  for (const [key, now] of Object.entries(current)) {
    const before = baseline.figures[key];
    if (!before || before.value <= 0 || now.value <= 0) continue;
    const worseBy = now.higherIsBetter ? before.value / now.value : now.value / before.value;
    const allowed = 1 + Math.max(NOISE_FLOOR, before.relativeUncertainty + now.relativeUncertainty);
    if (worseBy > allowed) regressions.push({ key, baseline: before.value, current: now.value, worseBy, allowed });
  }
  return regressions;
}
