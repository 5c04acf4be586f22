import { readFile } from "node:fs/promises";
import { UsageError } from "../util/errors.ts";

/** Parse one YAML file into a mapping (or null when empty), or throw a one-line UsageError naming it. */
export async function readYamlMapping(file: string): Promise<Record<string, unknown> | null> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new UsageError(`${file}: cannot read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  // Loaded when a file is parsed: a player imports this module's neighbours but reads no YAML,
  // and the parser was about 30 ms of every player's start.
  const { parse } = await import("yaml");
  let value: unknown;
  try {
    value = parse(text);
  } catch (error) {
    throw new UsageError(`${file}: malformed YAML: ${firstLine(error)}`);
  }
  if (value === null || value === undefined) return null;
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new UsageError(`${file}: expected a mapping at the top level`);
  }
  return value as Record<string, unknown>;
}

export function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n")[0]!.trim();
}
