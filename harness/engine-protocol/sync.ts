/**
 * Make a TypeScript argument look as the remote engine left its own copy: arrays and objects are
 * updated in place (their identity, and that of nested objects, kept), so a caller that checks
 * "did the engine mutate what I gave it" sees the same answer as for an in-process engine.
 */
export function syncInPlace(target: unknown, source: unknown): boolean {
  if (Array.isArray(target) && Array.isArray(source)) {
    const shared = Math.min(target.length, source.length);
    for (let index = 0; index < shared; index++) {
      if (!syncInPlace(target[index], source[index])) target[index] = source[index];
    }
    if (target.length > source.length) target.length = source.length;
    for (let index = shared; index < source.length; index++) target.push(source[index]);
    return true;
  }
  if (isPlainObject(target) && isPlainObject(source)) {
    for (const key of Object.keys(target)) if (!(key in source)) delete target[key];
    for (const [key, value] of Object.entries(source)) {
      if (!syncInPlace(target[key], value)) target[key] = value;
    }
    return true;
  }
  return false;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
