import { createHash } from "node:crypto";
import type { ValueDigest } from "./events.ts";

/**
 * Canonical JSON: object keys sorted, `undefined` members dropped (as JSON.stringify), non-finite
 * numbers as null, functions and symbols omitted, bigint as a decimal string and a repeated
 * ancestor as "[Circular]". Deterministic for any value an engine may hand back.
 */
export function canonicalJson(value: unknown): string {
  return write(value, new Set<object>()) ?? "null";
}

function write(value: unknown, ancestors: Set<object>): string | undefined {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      return Number.isFinite(value) ? JSON.stringify(value) : "null";
    case "boolean":
      return value ? "true" : "false";
    case "bigint":
      return JSON.stringify(value.toString());
    case "undefined":
    case "function":
    case "symbol":
      return undefined;
  }
  if (value === null) return "null";
  const object = value as object;
  if (ancestors.has(object)) return '"[Circular]"';
  ancestors.add(object);
  let out: string;
  if (Array.isArray(object)) {
    const parts: string[] = [];
    for (const item of object) parts.push(write(item, ancestors) ?? "null");
    out = `[${parts.join(",")}]`;
  } else {
    const record = object as Record<string, unknown>;
    const parts: string[] = [];
    for (const key of Object.keys(record).sort()) {
      const text = write(record[key], ancestors);
      if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
    }
    out = `{${parts.join(",")}}`;
  }
  ancestors.delete(object);
  return out;
}

/** sha256 of the canonical JSON (first 16 hex) and its length in characters. */
export function digestValue(value: unknown): ValueDigest {
  const json = canonicalJson(value);
  return { digest: createHash("sha256").update(json).digest("hex").slice(0, 16), size: json.length };
}
