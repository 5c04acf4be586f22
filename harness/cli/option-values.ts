import { UsageError } from "../util/errors.ts";

/**
 * The one place a command-line value is range-checked. Each parser takes the raw value (as a
 * yargs `coerce` sees it, or as a test passes it) and returns the checked value or throws a
 * one-line UsageError naming the option. Numbers are parsed here, not by yargs: yargs turns
 * `--seed " "` into 0 and `--timeout abc` into NaN before anyone can tell.
 */

/** Node clamps a timer longer than this to 1 ms (with a warning), so no timer option may exceed it. */
export const TIMER_MAX_MS = 2_147_483_647;

function single(flag: string, raw: unknown): unknown {
  if (Array.isArray(raw)) {
    if (raw.length === 1) return raw[0];
    throw new UsageError(`${flag} is given ${raw.length} times; give it once`);
  }
  return raw;
}

function text(flag: string, raw: unknown, what: string): string {
  const value = single(flag, raw);
  if (value === undefined || value === true || value === false || value === null) throw new UsageError(`${flag} needs ${what}`);
  const trimmed = String(value).trim();
  if (trimmed === "") throw new UsageError(`${flag} is blank; give ${what}`);
  return trimmed;
}

function describeRange(min: number, max: number): string {
  if (max === Number.MAX_SAFE_INTEGER) return min <= -Number.MAX_SAFE_INTEGER ? "" : `>= ${min}`;
  return `from ${min} to ${max}`;
}

function wholeNumber(min: number, max: number): string {
  const range = describeRange(min, max);
  return range === "" ? "a whole number" : `a whole number ${range}`;
}

/** A whole number in [min, max], written in decimal. */
export function parseWholeNumber(flag: string, raw: unknown, range: { min?: number; max?: number } = {}): number {
  const min = range.min ?? 0;
  const max = range.max ?? Number.MAX_SAFE_INTEGER;
  const value = text(flag, raw, wholeNumber(min, max));
  const parsed = /^[+-]?\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(parsed)) throw new UsageError(`${flag} must be ${wholeNumber(min, max)}, got ${JSON.stringify(value)}`);
  if (parsed < min || parsed > max) throw new UsageError(`${flag} must be ${wholeNumber(min, max)}, got ${parsed}`);
  return parsed;
}

/** A seed: any whole number a double holds exactly. */
export function parseSeed(flag: string, raw: unknown): number {
  return parseWholeNumber(flag, raw, { min: -Number.MAX_SAFE_INTEGER });
}

/** A finite number in [min, max] (decimals and exponents allowed). */
export function parseNumber(flag: string, raw: unknown, range: { min?: number; max?: number; above?: number } = {}): number {
  const value = text(flag, raw, "a number");
  const parsed = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(value) ? Number(value) : Number.NaN;
  if (!Number.isFinite(parsed)) throw new UsageError(`${flag} must be a number, got ${JSON.stringify(value)}`);
  if (range.above !== undefined && parsed <= range.above) throw new UsageError(`${flag} must be more than ${range.above}, got ${parsed}`);
  if (range.min !== undefined && parsed < range.min) throw new UsageError(`${flag} must be at least ${range.min}, got ${parsed}`);
  if (range.max !== undefined && parsed > range.max) throw new UsageError(`${flag} must be at most ${range.max}, got ${parsed}`);
  return parsed;
}

/** A duration in milliseconds that a timer can wait: a whole number from 1 to TIMER_MAX_MS. */
export function parseTimerMs(flag: string, raw: unknown): number {
  const value = text(flag, raw, "a duration in milliseconds");
  const parsed = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(parsed) || parsed < 1 || parsed > TIMER_MAX_MS) {
    throw new UsageError(`${flag} must be a whole number of milliseconds from 1 to ${TIMER_MAX_MS} (about 24.8 days, Node's timer limit), got ${value}`);
  }
  return parsed;
}

/** A non-blank name (an engine, a suite): surrounding spaces trimmed. */
export function parseName(flag: string, raw: unknown): string {
  return text(flag, raw, "a name");
}

/** A path: refused when blank (`--out ""` would otherwise mean the working directory, silently); kept as typed otherwise. */
export function parsePath(flag: string, raw: unknown): string {
  const value = single(flag, raw);
  if (typeof value !== "string" && typeof value !== "number") throw new UsageError(`${flag} needs a path`);
  const path = String(value);
  if (path.trim() === "") throw new UsageError(`${flag} is blank; give a path`);
  return path;
}

/** A repeatable option: each value parsed by `parse`. */
export function parseEach<T>(flag: string, raw: unknown, parse: (flag: string, value: unknown) => T): T[] {
  return (Array.isArray(raw) ? raw : [raw]).map((value) => parse(flag, value));
}

/** A check id, rule or prefix (`--checks`): blank would be the prefix of every check. */
export function parseCheckSelector(flag: string, raw: unknown): string {
  return text(flag, raw, "a check id, rule or prefix (e.g. CMP-2)");
}

/** A catalogue scenario's name (`--scenarios`); whether the catalogue has it is the plan's to say. */
export function parseScenarioName(flag: string, raw: unknown): string {
  return text(flag, raw, "a catalogue scenario name (e.g. parallel-tool-calls)");
}

/** A non-blank value, trimmed; `what` says what to give ("a rule id (e.g. CMP-2)"). */
export function parseText(flag: string, raw: unknown, what: string): string {
  return text(flag, raw, what);
}
