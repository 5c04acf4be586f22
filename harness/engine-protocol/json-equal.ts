/**
 * Whether two values are written as the same JSON text, judged without writing either. Anything
 * JSON.stringify would write differently from what it holds (a toJSON method, an undefined or
 * non-finite value) says no, so a yes is always exact; a no only costs sending the value.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  switch (typeof a) {
    case "string":
    case "boolean":
      return a === b;
    case "number":
      return Number.isFinite(a) && a === b;
    case "object":
      break;
    default:
      return false;
  }
  if (a === null || b === null || typeof b !== "object") return a === b;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index++) if (!sameJson(a[index], b[index])) return false;
    return true;
  }
  if (Array.isArray(b) || typeof (a as { toJSON?: unknown }).toJSON === "function" || typeof (b as { toJSON?: unknown }).toJSON === "function") return false;
  const keys = Object.keys(a);
  const otherKeys = Object.keys(b);
  if (keys.length !== otherKeys.length) return false;
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!;
    if (key !== otherKeys[index] || !sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}
