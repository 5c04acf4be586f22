/**
 * The one schema language of ctxbench. A schema built here gives four things that must agree:
 * the TypeScript type (`Infer<typeof schema>`), a validator that names the JSON path of the
 * first problem, the published JSON Schema (draft 2020-12), and the canonical key order the
 * JSON writers use. Scenarios and results are both described with it.
 */

export interface Problem {
  /** JSONPath-style location, e.g. `$.certifications[0].checks[2].outcome`. */
  path: string;
  message: string;
}

/** Collects named definitions while a JSON Schema is generated (`$defs`, `$ref`). */
export interface JsonSchemaContext {
  define(name: string, build: () => Record<string, unknown>): Record<string, unknown>;
}

export interface Schema<T> {
  /** What the schema expects, for messages: "a string", "an integer", "an object". */
  readonly expects: string;
  /** True when the value has the schema's JSON type, whatever its other rules say. */
  matchesType(value: unknown): boolean;
  check(value: unknown, path: string): Problem | null;
  jsonSchema(context: JsonSchemaContext): Record<string, unknown>;
  /** The value with object keys in declaration order (free-form values: keys sorted). */
  canonical(value: T): T;
  /** The one value a `literal()` accepts (tagged unions read their tags from it). */
  readonly constant?: string | number | boolean;
  /** Type-level only: the type of a value this schema accepts. */
  readonly __type?: T;
}

export type Infer<S> = S extends Schema<infer T> ? T : never;

// ---- messages ----

/** A value as messages name it: `null`, `an array`, `the string "x"`, `a number`. */
export const describeValue = (value: unknown): string =>
  value === null
    ? "null"
    : Array.isArray(value)
      ? "an array"
      : typeof value === "string"
        ? `the string ${JSON.stringify(value).slice(0, 60)}`
        : typeof value === "number" && Number.isFinite(value) && !Number.isInteger(value)
          ? `the number ${value}`
          : typeof value === "object"
            ? "an object"
            : `a ${typeof value}`;

const mismatch = (schema: { expects: string }, value: unknown, path: string): Problem => ({
  path,
  message: `expected ${schema.expects}, got ${describeValue(value)}`,
});

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** `$.a.b` for identifiers, `$["a b"]` otherwise. */
export const memberPath = (path: string, key: string): string =>
  /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;

const withDescription = (schema: Record<string, unknown>, description: string | undefined) =>
  description === undefined ? schema : { ...schema, description };

const identity = <T>(value: T): T => value;

// ---- scalars ----

export interface StringOptions {
  minLength?: number;
  /** A regular expression (unicode mode) the whole value must match; anchor it yourself. */
  pattern?: string;
  description?: string;
}

export function string(options: StringOptions = {}): Schema<string> {
  const pattern = options.pattern === undefined ? null : new RegExp(options.pattern, "u");
  const schema: Schema<string> = {
    expects: "a string",
    matchesType: (value) => typeof value === "string",
    check: (value, path) => {
      if (typeof value !== "string") return mismatch(schema, value, path);
      if (options.minLength !== undefined && value.length < options.minLength)
        return { path, message: `expected a string of at least ${options.minLength} character${options.minLength === 1 ? "" : "s"}, got ${describeValue(value)}` };
      if (pattern !== null && !pattern.test(value)) return { path, message: `must match ${options.pattern}, got ${describeValue(value)}` };
      return null;
    },
    jsonSchema: () =>
      withDescription(
        {
          type: "string",
          ...(options.minLength !== undefined ? { minLength: options.minLength } : {}),
          ...(options.pattern !== undefined ? { pattern: options.pattern } : {}),
        },
        options.description,
      ),
    canonical: identity,
  };
  return schema;
}

export interface NumberOptions {
  minimum?: number;
  maximum?: number;
  description?: string;
}

function numeric(integer: boolean, options: NumberOptions): Schema<number> {
  const schema: Schema<number> = {
    expects: integer ? "an integer" : "a finite number",
    matchesType: (value) => typeof value === "number" && Number.isFinite(value) && (!integer || Number.isInteger(value)),
    check: (value, path) => {
      if (!schema.matchesType(value)) return mismatch(schema, value, path);
      const n = value as number;
      if (options.minimum !== undefined && n < options.minimum) return { path, message: `must be >= ${options.minimum}, got ${n}` };
      if (options.maximum !== undefined && n > options.maximum) return { path, message: `must be <= ${options.maximum}, got ${n}` };
      return null;
    },
    jsonSchema: () =>
      withDescription(
        {
          type: integer ? "integer" : "number",
          ...(options.minimum !== undefined ? { minimum: options.minimum } : {}),
          ...(options.maximum !== undefined ? { maximum: options.maximum } : {}),
        },
        options.description,
      ),
    canonical: identity,
  };
  return schema;
}

/** A finite number (JSON has no NaN or infinity). */
export const number = (options: NumberOptions = {}): Schema<number> => numeric(false, options);
export const integer = (options: NumberOptions = {}): Schema<number> => numeric(true, options);

export function boolean(description?: string): Schema<boolean> {
  const schema: Schema<boolean> = {
    expects: "a boolean",
    matchesType: (value) => typeof value === "boolean",
    check: (value, path) => (typeof value === "boolean" ? null : mismatch(schema, value, path)),
    jsonSchema: () => withDescription({ type: "boolean" }, description),
    canonical: identity,
  };
  return schema;
}

export function literal<const V extends string | number | boolean>(expected: V, description?: string): Schema<V> {
  return {
    constant: expected,
    expects: JSON.stringify(expected),
    matchesType: (value) => value === expected,
    check: (value, path) => (value === expected ? null : { path, message: `expected ${JSON.stringify(expected)}, got ${describeValue(value)}` }),
    jsonSchema: () => withDescription({ const: expected }, description),
    canonical: identity,
  };
}

/** `null` and nothing else. */
export function nullValue(): Schema<null> {
  const schema: Schema<null> = {
    expects: "null",
    matchesType: (value) => value === null,
    check: (value, path) => (value === null ? null : mismatch(schema, value, path)),
    jsonSchema: () => ({ type: "null" }),
    canonical: identity,
  };
  return schema;
}

/** A schema defined later (a recursive or forward `$ref`): `build` runs once, on first use. */
export function lazy<T>(build: () => Schema<T>): Schema<T> {
  let built: Schema<T> | undefined;
  const target = () => (built ??= build());
  return {
    get expects() {
      return target().expects;
    },
    matchesType: (value) => target().matchesType(value),
    check: (value, path) => target().check(value, path),
    jsonSchema: (context) => target().jsonSchema(context),
    canonical: (value) => target().canonical(value),
  };
}

/** One of a fixed list of strings (a JSON Schema `enum`). */
export function oneOf<const V extends string>(values: readonly V[], description?: string): Schema<V> {
  const expects = `one of ${values.map((v) => JSON.stringify(v)).join(", ")}`;
  return {
    expects,
    matchesType: (value) => typeof value === "string" && (values as readonly string[]).includes(value),
    check: (value, path) =>
      typeof value === "string" && (values as readonly string[]).includes(value) ? null : { path, message: `expected ${expects}, got ${describeValue(value)}` },
    jsonSchema: () => withDescription({ enum: [...values] }, description),
    canonical: identity,
  };
}

/** Any JSON value (trace evidence); its canonical form sorts object keys so output is byte-stable. */
export function anyJson(description?: string): Schema<unknown> {
  const sortKeys = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(sortKeys);
    if (isPlainObject(value)) return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortKeys(value[key])]));
    return value;
  };
  return {
    expects: "a JSON value",
    matchesType: () => true,
    check: () => null,
    jsonSchema: () => withDescription({}, description),
    canonical: sortKeys,
  };
}

// ---- combinators ----

export function nullable<T>(inner: Schema<T>): Schema<T | null> {
  const schema: Schema<T | null> = {
    expects: `${inner.expects} or null`,
    matchesType: (value) => value === null || inner.matchesType(value),
    check: (value, path) => (value === null ? null : inner.matchesType(value) ? inner.check(value, path) : mismatch(schema, value, path)),
    jsonSchema: (context) => ({ anyOf: [inner.jsonSchema(context), { type: "null" }] }),
    canonical: (value) => (value === null ? null : inner.canonical(value)),
  };
  return schema;
}

export function array<T>(item: Schema<T>, options: { minItems?: number; description?: string } = {}): Schema<T[]> {
  const schema: Schema<T[]> = {
    expects: "an array",
    matchesType: Array.isArray,
    check: (value, path) => {
      if (!Array.isArray(value)) return mismatch(schema, value, path);
      if (options.minItems !== undefined && value.length < options.minItems)
        return { path, message: `expected at least ${options.minItems} item${options.minItems === 1 ? "" : "s"}, got ${value.length}` };
      for (let index = 0; index < value.length; index++) {
        const problem = item.check(value[index], `${path}[${index}]`);
        if (problem) return problem;
      }
      return null;
    },
    jsonSchema: (context) =>
      withDescription({ type: "array", ...(options.minItems !== undefined ? { minItems: options.minItems } : {}), items: item.jsonSchema(context) }, options.description),
    canonical: (value) => value.map((element) => item.canonical(element)),
  };
  return schema;
}

/** An object whose keys are free and whose values all follow one schema (`additionalProperties`). */
export function record<T>(value: Schema<T>, description?: string): Schema<Record<string, T>> {
  const schema: Schema<Record<string, T>> = {
    expects: "an object",
    matchesType: isPlainObject,
    check: (input, path) => {
      if (!isPlainObject(input)) return mismatch(schema, input, path);
      for (const key of Object.keys(input)) {
        const problem = value.check(input[key], memberPath(path, key));
        if (problem) return problem;
      }
      return null;
    },
    jsonSchema: (context) => withDescription({ type: "object", additionalProperties: value.jsonSchema(context) }, description),
    canonical: (input) => Object.fromEntries(Object.keys(input).map((key) => [key, value.canonical(input[key] as T)])),
  };
  return schema;
}

/** Alternatives of different JSON types (a string or a list, say); the one of the value's type explains a problem. */
export function union<const S extends readonly Schema<any>[]>(alternatives: S, description?: string): Schema<Infer<S[number]>> {
  type T = Infer<S[number]>;
  const schema: Schema<T> = {
    // A getter: alternatives may be lazy references not yet resolved.
    get expects() {
      return alternatives.map((alternative) => alternative.expects).join(" or ");
    },
    matchesType: (value) => alternatives.some((alternative) => alternative.matchesType(value)),
    check: (value, path) => {
      const candidates = alternatives.filter((alternative) => alternative.matchesType(value));
      if (candidates.length === 0) return mismatch(schema, value, path);
      let first: Problem | null = null;
      for (const candidate of candidates) {
        const problem = candidate.check(value, path);
        if (problem === null) return null;
        first ??= problem;
      }
      return first;
    },
    jsonSchema: (context) => withDescription({ oneOf: alternatives.map((alternative) => alternative.jsonSchema(context)) }, description),
    canonical: (value) => {
      const chosen = alternatives.find((alternative) => alternative.matchesType(value) && alternative.check(value, "$") === null);
      return (chosen ? chosen.canonical(value) : value) as T;
    },
  };
  return schema;
}

// ---- objects ----

/** A property that may be absent. */
export interface OptionalProperty<T> {
  readonly optional: Schema<T>;
}
export const optional = <T>(schema: Schema<T>): OptionalProperty<T> => ({ optional: schema });

type Property = Schema<any> | OptionalProperty<any>;
export type Properties = Record<string, Property>;

type RequiredKeys<P extends Properties> = { [K in keyof P]: P[K] extends OptionalProperty<any> ? never : K }[keyof P];
type OptionalKeys<P extends Properties> = { [K in keyof P]: P[K] extends OptionalProperty<any> ? K : never }[keyof P];
type PropertyType<X> = X extends OptionalProperty<infer T> ? T : X extends Schema<infer T> ? T : never;
type Simplify<T> = { [K in keyof T]: T[K] } & {};

export type ObjectType<P extends Properties> = Simplify<{ [K in RequiredKeys<P>]: PropertyType<P[K]> } & { [K in OptionalKeys<P>]?: PropertyType<P[K]> }>;

export interface ObjectSchema<P extends Properties, T = ObjectType<P>> extends Schema<T> {
  readonly properties: P;
  /** The same object with more properties (declared after these). */
  extend<Q extends Properties>(more: Q, options?: ObjectOptions): ObjectSchema<P & Q>;
}

export interface ObjectOptions {
  description?: string;
  /** Unknown keys are allowed (kept as they are) instead of being problems. */
  open?: boolean;
  /** Unknown keys are allowed and their values follow this schema (JSON Schema's `additionalProperties: {…}`). */
  additional?: Schema<unknown>;
}

/** A closed object unless `open`: unknown keys are problems. Wrap a property in `optional()` when it may be absent. */
export function object<const P extends Properties>(properties: P, options: ObjectOptions = {}): ObjectSchema<P> {
  const entries = Object.entries(properties).map(([key, property]) => {
    const isOptional = "optional" in property;
    return { key, schema: (isOptional ? property.optional : property) as Schema<unknown>, isOptional };
  });
  const byKey = new Map(entries.map((entry) => [entry.key, entry]));
  const schema: ObjectSchema<P> = {
    properties,
    expects: "an object",
    matchesType: isPlainObject,
    check: (value, path) => {
      if (!isPlainObject(value)) return mismatch(schema, value, path);
      for (const { key, schema: property, isOptional } of entries) {
        if (!Object.hasOwn(value, key)) {
          if (isOptional) continue;
          return { path, message: `missing required property "${key}"` };
        }
        const problem = property.check(value[key], memberPath(path, key));
        if (problem) return problem;
      }
      if (options.additional !== undefined) {
        for (const key of Object.keys(value)) {
          if (byKey.has(key)) continue;
          const problem = options.additional.check(value[key], memberPath(path, key));
          if (problem) return problem;
        }
      } else if (options.open !== true) {
        for (const key of Object.keys(value)) if (!byKey.has(key)) return { path: memberPath(path, key), message: `unknown property "${key}"` };
      }
      return null;
    },
    jsonSchema: (context) =>
      withDescription(
        {
          type: "object",
          properties: Object.fromEntries(entries.map(({ key, schema: property }) => [key, property.jsonSchema(context)])),
          required: entries.filter((entry) => !entry.isOptional).map((entry) => entry.key),
          ...(options.additional !== undefined ? { additionalProperties: options.additional.jsonSchema(context) } : options.open === true ? {} : { additionalProperties: false }),
        },
        options.description,
      ),
    canonical: (value) => {
      const input = value as Record<string, unknown>;
      const declared = entries.filter(({ key }) => Object.hasOwn(input, key)).map(({ key, schema: property }) => [key, property.canonical(input[key])]);
      const rest = options.open === true || options.additional !== undefined ? Object.keys(input).filter((key) => !byKey.has(key)).map((key) => [key, input[key]]) : [];
      return Object.fromEntries([...declared, ...rest]) as ObjectType<P>;
    },
    extend: (more, extendOptions) => object({ ...properties, ...more }, { ...options, ...extendOptions }),
  };
  return schema;
}

/**
 * A union of objects told apart by the value of one property (`suite`, `kind`, `type`). A value
 * whose tag is known is explained by its own variant; an unknown tag is named at the tag's path.
 */
export function taggedUnion<const K extends string, const S extends readonly ObjectSchema<any>[]>(tag: K, variants: S, description?: string): Schema<Infer<S[number]>> {
  type T = Infer<S[number]>;
  const byTag = new Map<unknown, Schema<unknown>>();
  for (const variant of variants) {
    const tagSchema = (variant.properties as Properties)[tag];
    if (tagSchema === undefined || "optional" in tagSchema) throw new Error(`taggedUnion: a variant lacks the required "${tag}" property`);
    const value = tagSchema.constant;
    if (value === undefined) throw new Error(`taggedUnion: the "${tag}" property of a variant must be a literal()`);
    if (byTag.has(value)) throw new Error(`taggedUnion: two variants share ${tag} = ${JSON.stringify(value)}`);
    byTag.set(value, variant);
  }
  const tags = [...byTag.keys()];
  const expectsTag = `one of ${tags.map((t) => JSON.stringify(t)).join(", ")}`;
  const schema: Schema<T> = {
    expects: "an object",
    matchesType: isPlainObject,
    check: (value, path) => {
      if (!isPlainObject(value)) return mismatch(schema, value, path);
      const variant = Object.hasOwn(value, tag) ? byTag.get(value[tag]) : undefined;
      if (variant === undefined) {
        if (!Object.hasOwn(value, tag)) return { path, message: `missing required property "${tag}" (${expectsTag})` };
        return { path: memberPath(path, tag), message: `expected ${expectsTag}, got ${describeValue(value[tag])}` };
      }
      return variant.check(value, path);
    },
    jsonSchema: (context) => withDescription({ oneOf: variants.map((variant) => variant.jsonSchema(context)) }, description),
    canonical: (value) => {
      const variant = byTag.get((value as Record<string, unknown>)[tag]);
      return (variant ? variant.canonical(value) : value) as T;
    },
  };
  return schema;
}

/**
 * A schema with a name: the JSON Schema holds it once under `$defs` and refers to it by `$ref`.
 * Nothing else changes.
 */
export function named<S extends Schema<any>>(name: string, schema: S): S {
  return { ...schema, jsonSchema: (context: JsonSchemaContext) => context.define(name, () => schema.jsonSchema(context)) };
}

/** Declares the TypeScript type a schema stands for when it is written by hand elsewhere (the contract's Message). */
export const typed = <T>(schema: Schema<unknown>): Schema<T> => schema as Schema<T>;

// ---- whole documents ----

/** The JSON Schema document of a root schema, with every named part under `$defs`. */
export function jsonSchemaDocument(root: Schema<unknown>, header: Record<string, unknown>): Record<string, unknown> {
  const defs = new Map<string, Record<string, unknown>>();
  const building = new Set<string>();
  const context: JsonSchemaContext = {
    define(name, build) {
      if (!defs.has(name) && !building.has(name)) {
        building.add(name);
        defs.set(name, build());
        building.delete(name);
      }
      return { $ref: `#/$defs/${name}` };
    },
  };
  const body = root.jsonSchema(context);
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    ...header,
    ...body,
    ...(defs.size > 0 ? { $defs: Object.fromEntries([...defs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) } : {}),
  };
}

/** `JSON.stringify` of a JSON Schema document, as the committed `*.schema.json` files hold it. */
export const schemaFileText = (document: Record<string, unknown>): string => `${JSON.stringify(document, null, 2)}\n`;
