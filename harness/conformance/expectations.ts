import { existsSync, writeFileSync } from "node:fs";
import { parse, stringify } from "yaml";
import { UsageError } from "../util/errors.ts";
import { InputTooLargeError, readTextInput } from "../util/input-limits.ts";
import { OUTCOMES, type EvaluatedCheck, type Outcome } from "./types.ts";

/** What an engine's author expects of one check, and why (WPT-style metadata beside the engine). */
export interface Expectation {
  expected: Outcome;
  reason: string;
  link?: string;
}

export type Expectations = ReadonlyMap<string, Expectation>;

/** An expectations file holds an entry per check (a few dozen lines); one this large is not one. */
export const EXPECTATIONS_MAX_BYTES = 4 * 1024 * 1024;

/** An expectations file that cannot be read as one (exit 2, from every command that reads it). */
export class ExpectationsError extends UsageError {}

/**
 * Reads an expectations file: a YAML mapping of check id → `{expected, reason, link?}`. Unknown
 * check ids are returned as warnings (a check may have been retired), never silently dropped.
 */
export function readExpectations(path: string, knownIds: readonly string[]): { expectations: Expectations; warnings: string[] } {
  let text: string;
  try {
    text = readTextInput(path, "expectations files", EXPECTATIONS_MAX_BYTES);
  } catch (error) {
    if (error instanceof InputTooLargeError) throw new ExpectationsError(error.message);
    throw new ExpectationsError(`${path}: cannot read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let data: unknown;
  try {
    data = parse(text);
  } catch (error) {
    throw new ExpectationsError(`${path}: ${(error as Error).message.split("\n")[0]}`);
  }
  const expectations = new Map<string, Expectation>();
  const warnings: string[] = [];
  if (data === null || data === undefined) return { expectations, warnings };
  if (typeof data !== "object" || Array.isArray(data)) throw new ExpectationsError(`${path}: expected a mapping of check id to {expected, reason}`);
  for (const [id, entry] of Object.entries(data as Record<string, unknown>)) {
    if (entry === null || typeof entry !== "object" || Array.isArray(entry)) throw new ExpectationsError(`${path}: "${id}" must be a mapping with expected and reason`);
    const { expected, reason, link } = entry as Record<string, unknown>;
    if (typeof expected !== "string" || !(OUTCOMES as readonly string[]).includes(expected)) {
      throw new ExpectationsError(`${path}: "${id}".expected must be one of ${OUTCOMES.join(", ")}`);
    }
    if (typeof reason !== "string" || reason.trim() === "") throw new ExpectationsError(`${path}: "${id}" needs a reason`);
    if (link !== undefined && typeof link !== "string") throw new ExpectationsError(`${path}: "${id}".link must be a string`);
    if (!knownIds.includes(id)) warnings.push(`${path}: no check "${id}" (retired or misspelt); its expectation is ignored`);
    expectations.set(id, { expected: expected as Outcome, reason, ...(link !== undefined ? { link } : {}) });
  }
  return { expectations, warnings };
}

/**
 * The file `--update-expectations` writes: every check of this run whose outcome is neither a
 * pass nor a skip, keeping the reason and link already written for an unchanged outcome; and
 * every entry of a check this run did not run, as it was (reasons and links included).
 */
export function updatedExpectations(results: readonly EvaluatedCheck[], previous: Expectations): Record<string, Expectation> {
  const next: Record<string, Expectation> = {};
  const ran = new Set(results.map((result) => result.id));
  for (const [id, entry] of previous) if (!ran.has(id)) next[id] = entry;
  for (const result of results) {
    if (result.outcome === "pass" || result.outcome === "skipped") continue;
    const old = previous.get(result.id);
    next[result.id] = old && old.expected === result.outcome ? old : { expected: result.outcome, reason: `observed: ${result.message}` };
  }
  return Object.fromEntries(Object.entries(next).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export function writeExpectations(path: string, entries: Record<string, Expectation>, engine: string): void {
  const header = `# Expected conformance outcomes of the "${engine}" engine (ctxbench certify).\n# Each entry: check id -> {expected: pass|fail|error|timeout|skipped|indeterminate, reason, link?}.\n`;
  writeFileSync(path, header + (Object.keys(entries).length === 0 ? "{}\n" : stringify(entries, { lineWidth: 0 })));
}

export function defaultExpectationsPath(pluginDirectory: string | null): string | null {
  if (pluginDirectory === null) return null;
  const path = `${pluginDirectory}/expectations.yaml`;
  return existsSync(path) ? path : null;
}
