/**
 * Why `value` would not come back unchanged from `JSON.parse(JSON.stringify(value))`, or null
 * when it would. One walk, no serialising: the store checks every message of a batch with it.
 * Plain objects may hold `undefined` values (JSON drops those keys, as the caller expects).
 */
export function jsonUnsafeReason(value: unknown): string | null {
  try {
    return reasonAt(value, []);
  } catch (error) {
    if (error instanceof RangeError) return "it is nested too deeply to serialise";
    throw error;
  }
}

function reasonAt(value: unknown, ancestors: object[]): string | null {
  switch (typeof value) {
    case "string":
    case "boolean":
      return null;
    case "number":
      return Number.isFinite(value) ? null : `it holds the non-finite number ${String(value)}`;
    case "bigint":
      return "it holds a BigInt";
    case "function":
      return "it holds a function";
    case "symbol":
      return "it holds a symbol";
    case "undefined":
      return "it holds undefined where JSON would write null";
  }
  if (value === null) return null;
  const object = value as object;
  if (ancestors.includes(object)) return "it holds a circular reference";
  if (Array.isArray(object)) {
    ancestors.push(object);
    for (let i = 0; i < object.length; i++) {
      const reason = reasonAt(object[i], ancestors);
      if (reason !== null) return reason;
    }
    ancestors.pop();
    return null;
  }
  if (Object.getPrototypeOf(object) !== Object.prototype) {
    return `it holds a ${object.constructor?.name ?? "null-prototype"} object, not a plain one`;
  }
  ancestors.push(object);
  const record = object as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const item = record[key];
    if (item === undefined) continue;
    const reason = reasonAt(item, ancestors);
    if (reason !== null) return reason;
  }
  ancestors.pop();
  return null;
}
