/**
 * A tiny schema language: one description of a JSON shape gives three things that must agree —
 * a validator that names the JSON path of the first problem, the published JSON Schema, and the
 * canonical key order the json renderer writes.
 */

export interface Problem {
  /** JSONPath-style location, e.g. `$.certifications[0].checks[2].outcome`. */
  path: string;
  message: string;
}

export interface Shape {
  check(value: unknown, path: string): Problem | null;
  jsonSchema(): Record<string, unknown>;
  /** The value with object keys in declaration order (free-form values: keys sorted). */
  canonical(value: unknown): unknown;
}

const describe = (value: unknown): string =>
  value === null ? "null" : Array.isArray(value) ? "an array" : typeof value === "string" ? `the string ${JSON.stringify(value).slice(0, 60)}` : `a ${typeof value}`;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export function string(options: { minLength?: number; description?: string } = {}): Shape {
  return {
    check: (value, path) => {
      if (typeof value !== "string") return { path, message: `expected a string, got ${describe(value)}` };
      if (options.minLength !== undefined && value.length < options.minLength)
        return { path, message: `expected a string of at least ${options.minLength} characters` };
      return null;
    },
    jsonSchema: () => ({
      type: "string",
      ...(options.minLength !== undefined ? { minLength: options.minLength } : {}),
      ...(options.description ? { description: options.description } : {}),
    }),
    canonical: (value) => value,
  };
}

export function number(options: { integer?: boolean; minimum?: number; maximum?: number; description?: string } = {}): Shape {
  return {
    check: (value, path) => {
      if (typeof value !== "number" || !Number.isFinite(value)) return { path, message: `expected a finite number, got ${describe(value)}` };
      if (options.integer && !Number.isInteger(value)) return { path, message: `expected an integer, got ${value}` };
      if (options.minimum !== undefined && value < options.minimum) return { path, message: `expected a number ≥ ${options.minimum}, got ${value}` };
      if (options.maximum !== undefined && value > options.maximum) return { path, message: `expected a number ≤ ${options.maximum}, got ${value}` };
      return null;
    },
    jsonSchema: () => ({
      type: options.integer ? "integer" : "number",
      ...(options.minimum !== undefined ? { minimum: options.minimum } : {}),
      ...(options.maximum !== undefined ? { maximum: options.maximum } : {}),
      ...(options.description ? { description: options.description } : {}),
    }),
    canonical: (value) => value,
  };
}

export function boolean(): Shape {
  return {
    check: (value, path) => (typeof value === "boolean" ? null : { path, message: `expected a boolean, got ${describe(value)}` }),
    jsonSchema: () => ({ type: "boolean" }),
    canonical: (value) => value,
  };
}

export function literal(expected: string | number): Shape {
  return {
    check: (value, path) => (value === expected ? null : { path, message: `expected ${JSON.stringify(expected)}, got ${describe(value)}` }),
    jsonSchema: () => ({ const: expected }),
    canonical: (value) => value,
  };
}

export function oneOf(values: readonly string[]): Shape {
  return {
    check: (value, path) =>
      typeof value === "string" && values.includes(value)
        ? null
        : { path, message: `expected one of ${values.map((v) => JSON.stringify(v)).join(", ")}, got ${describe(value)}` },
    jsonSchema: () => ({ enum: [...values] }),
    canonical: (value) => value,
  };
}

export function nullable(inner: Shape): Shape {
  return {
    check: (value, path) => (value === null ? null : inner.check(value, path)),
    jsonSchema: () => ({ anyOf: [inner.jsonSchema(), { type: "null" }] }),
    canonical: (value) => (value === null ? null : inner.canonical(value)),
  };
}

export function array(item: Shape): Shape {
  return {
    check: (value, path) => {
      if (!Array.isArray(value)) return { path, message: `expected an array, got ${describe(value)}` };
      for (const [index, element] of value.entries()) {
        const problem = item.check(element, `${path}[${index}]`);
        if (problem) return problem;
      }
      return null;
    },
    jsonSchema: () => ({ type: "array", items: item.jsonSchema() }),
    canonical: (value) => (value as unknown[]).map((element) => item.canonical(element)),
  };
}

/** Any JSON value (trace evidence); canonical form sorts object keys so output is byte-stable. */
export function anyJson(): Shape {
  const sortKeys = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(sortKeys);
    if (isPlainObject(value)) return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortKeys(value[key])]));
    return value;
  };
  return { check: () => null, jsonSchema: () => ({}), canonical: sortKeys };
}

const keyPath = (path: string, key: string) => (/^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`);

/** An object shape: the only kind a tagged union may hold. */
export interface ObjectShape extends Shape {
  readonly kind: "object";
}

/** A closed object: unknown keys are problems. Keys listed in `optional` may be absent. */
export function object(properties: Record<string, Shape>, optional: readonly string[] = [], description?: string): ObjectShape {
  const keys = Object.keys(properties);
  return {
    kind: "object",
    check: (value, path) => {
      if (!isPlainObject(value)) return { path, message: `expected an object, got ${describe(value)}` };
      for (const key of keys) {
        if (!(key in value)) {
          if (optional.includes(key)) continue;
          return { path: keyPath(path, key), message: "missing required property" };
        }
        const problem = properties[key]!.check(value[key], keyPath(path, key));
        if (problem) return problem;
      }
      for (const key of Object.keys(value)) {
        if (!(key in properties)) return { path: keyPath(path, key), message: "unknown property" };
      }
      return null;
    },
    jsonSchema: () => ({
      type: "object",
      ...(description ? { description } : {}),
      properties: Object.fromEntries(keys.map((key) => [key, properties[key]!.jsonSchema()])),
      required: keys.filter((key) => !optional.includes(key)),
      additionalProperties: false,
    }),
    canonical: (value) => {
      const record = value as Record<string, unknown>;
      return Object.fromEntries(keys.filter((key) => key in record).map((key) => [key, properties[key]!.canonical(record[key])]));
    },
  };
}

/** A union of objects told apart by the string value of one property. */
export function taggedUnion(tag: string, variants: Record<string, ObjectShape>): Shape {
  const tags = Object.keys(variants);
  return {
    check: (value, path) => {
      if (!isPlainObject(value)) return { path, message: `expected an object, got ${describe(value)}` };
      const variant = typeof value[tag] === "string" ? variants[value[tag]] : undefined;
      if (!variant)
        return { path: keyPath(path, tag), message: `expected one of ${tags.map((t) => JSON.stringify(t)).join(", ")}, got ${describe(value[tag])}` };
      return variant.check(value, path);
    },
    jsonSchema: () => ({ oneOf: tags.map((name) => variants[name]!.jsonSchema()) }),
    canonical: (value) => {
      const record = value as Record<string, unknown>;
      return variants[record[tag] as string]!.canonical(value);
    },
  };
}
