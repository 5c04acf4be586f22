/**
 * A copy of JSON data equal to `JSON.parse(JSON.stringify(value))`, made without writing text, or
 * `undefined` where the two could differ (a toJSON method, an undefined or non-finite value, a class
 * instance, a `__proto__` key). Its lists and objects are new; its strings are the value's own, so
 * comparing the copy with the value later (sameJson) meets the same strings and needs no character
 * comparison.
 */
export function plainJsonCopy(value: unknown): unknown {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return Number.isFinite(value) ? (value === 0 ? 0 : value) : undefined;
    case "object":
      break;
    default:
      return undefined;
  }
  if (value === null) return null;
  if (Array.isArray(value)) {
    const copy: unknown[] = new Array(value.length);
    for (let index = 0; index < value.length; index++) {
      const item = plainJsonCopy(value[index]);
      if (item === undefined) return undefined;
      copy[index] = item;
    }
    return copy;
  }
  const prototype = Object.getPrototypeOf(value);
  if ((prototype !== Object.prototype && prototype !== null) || typeof (value as { toJSON?: unknown }).toJSON === "function") return undefined;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (key === "__proto__") return undefined;
    const item = plainJsonCopy((value as Record<string, unknown>)[key]);
    if (item === undefined) return undefined;
    copy[key] = item;
  }
  return copy;
}
