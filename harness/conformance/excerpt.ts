/**
 * A short copy of a trace value for reports and repro files: long strings cut, long lists
 * reduced to their ends, deep nesting elided. Deterministic, so reports stay byte-stable.
 */
export function abridge(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return value.length > 240 ? `${value.slice(0, 200)}… (${value.length} chars)` : value;
  if (value === null || typeof value !== "object") return value;
  if (depth >= 6) return "…";
  if (Array.isArray(value)) {
    if (value.length <= 8) return value.map((item) => abridge(item, depth + 1));
    return [...value.slice(0, 3).map((item) => abridge(item, depth + 1)), `… ${value.length - 6} more …`, ...value.slice(-3).map((item) => abridge(item, depth + 1))];
  }
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === "durationMs") continue;
    copy[key] = abridge(item, depth + 1);
  }
  return copy;
}
