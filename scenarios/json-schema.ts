/**
 * A small interpreter for the subset of JSON Schema that scenario.schema.json uses, so the
 * published schema is the validator (no second copy to drift). Reports the JSON path of the
 * first problem.
 */

export type SchemaNode = { [keyword: string]: unknown };

/** Keywords this interpreter understands; a schema using any other keyword is rejected up front. */
export const SUPPORTED_KEYWORDS: ReadonlySet<string> = new Set([
  "$schema", "$id", "$ref", "$defs", "title", "description",
  "type", "properties", "required", "additionalProperties", "items",
  "enum", "const", "oneOf", "minimum", "maximum", "minItems", "minLength", "pattern",
]);

export interface SchemaProblem {
  path: string;
  message: string;
}

export class JsonSchemaValidator {
  readonly #root: SchemaNode;
  readonly #patterns = new Map<string, RegExp>();

  constructor(root: SchemaNode) {
    this.#root = root;
  }

  /** The first problem found, or null when the value conforms. */
  validate(value: unknown): SchemaProblem | null {
    return this.#check(this.#root, value, "$");
  }

  #resolve(ref: string): SchemaNode {
    if (!ref.startsWith("#/")) throw new Error(`unsupported $ref ${ref}`);
    let node: unknown = this.#root;
    for (const part of ref.slice(2).split("/")) node = (node as SchemaNode)[part];
    if (typeof node !== "object" || node === null) throw new Error(`dangling $ref ${ref}`);
    return node as SchemaNode;
  }

  #check(schema: SchemaNode, value: unknown, path: string): SchemaProblem | null {
    if (typeof schema.$ref === "string") {
      const problem = this.#check(this.#resolve(schema.$ref), value, path);
      if (problem) return problem;
    }
    if (schema.type !== undefined && !matchesType(schema.type as string | string[], value)) {
      return { path, message: `expected ${describeType(schema.type as string | string[])}, got ${typeName(value)}` };
    }
    if ("const" in schema && value !== schema.const) {
      return { path, message: `expected ${JSON.stringify(schema.const)}, got ${JSON.stringify(value)}` };
    }
    if (Array.isArray(schema.enum) && !schema.enum.includes(value)) {
      return { path, message: `expected one of ${schema.enum.map((v) => JSON.stringify(v)).join(", ")}, got ${JSON.stringify(value)}` };
    }
    if (Array.isArray(schema.oneOf)) {
      const problem = this.#checkOneOf(schema.oneOf as SchemaNode[], value, path);
      if (problem) return problem;
    }
    if (typeof value === "string") return this.#checkString(schema, value, path);
    if (typeof value === "number") {
      if (typeof schema.minimum === "number" && value < schema.minimum) {
        return { path, message: `must be >= ${schema.minimum}, got ${value}` };
      }
      if (typeof schema.maximum === "number" && value > schema.maximum) {
        return { path, message: `must be <= ${schema.maximum}, got ${value}` };
      }
      return null;
    }
    if (Array.isArray(value)) return this.#checkArray(schema, value, path);
    if (typeof value === "object" && value !== null) return this.#checkObject(schema, value as Record<string, unknown>, path);
    return null;
  }

  #checkString(schema: SchemaNode, value: string, path: string): SchemaProblem | null {
    if (typeof schema.minLength === "number" && value.length < schema.minLength) {
      return { path, message: `must have at least ${schema.minLength} characters` };
    }
    if (typeof schema.pattern === "string") {
      let pattern = this.#patterns.get(schema.pattern);
      if (!pattern) this.#patterns.set(schema.pattern, (pattern = new RegExp(schema.pattern, "u")));
      if (!pattern.test(value)) return { path, message: `must match ${schema.pattern}, got ${JSON.stringify(value)}` };
    }
    return null;
  }

  #checkArray(schema: SchemaNode, value: unknown[], path: string): SchemaProblem | null {
    if (typeof schema.minItems === "number" && value.length < schema.minItems) {
      return { path, message: `must have at least ${schema.minItems} item(s)` };
    }
    if (schema.items && typeof schema.items === "object") {
      for (let i = 0; i < value.length; i++) {
        const problem = this.#check(schema.items as SchemaNode, value[i], `${path}[${i}]`);
        if (problem) return problem;
      }
    }
    return null;
  }

  #checkObject(schema: SchemaNode, value: Record<string, unknown>, path: string): SchemaProblem | null {
    if (Array.isArray(schema.required)) {
      for (const key of schema.required as string[]) {
        if (!Object.hasOwn(value, key)) return { path, message: `missing required property "${key}"` };
      }
    }
    const properties = (schema.properties ?? {}) as Record<string, SchemaNode>;
    for (const key of Object.keys(value)) {
      const child = `${path}${memberPath(key)}`;
      // Own properties only: "constructor", "toString" or "__proto__" must not find Object.prototype's.
      const propertySchema = Object.hasOwn(properties, key) ? properties[key] : undefined;
      if (propertySchema) {
        const problem = this.#check(propertySchema, value[key], child);
        if (problem) return problem;
      } else if (schema.additionalProperties === false) {
        return { path: child, message: `unknown property "${key}"` };
      } else if (typeof schema.additionalProperties === "object" && schema.additionalProperties !== null) {
        const problem = this.#check(schema.additionalProperties as SchemaNode, value[key], child);
        if (problem) return problem;
      }
    }
    return null;
  }

  #checkOneOf(branches: SchemaNode[], value: unknown, path: string): SchemaProblem | null {
    const problems: Array<SchemaProblem | null> = branches.map((branch) => this.#check(branch, value, path));
    const passing = problems.filter((p) => p === null).length;
    if (passing === 1) return null;
    if (passing > 1) return { path, message: "matches more than one alternative" };
    // Explain through the alternative whose discriminator (a const property) the value carries.
    const candidates = branches
      .map((branch, i) => ({ branch, problem: problems[i] as SchemaProblem }))
      .filter(({ branch }) => discriminatorMatches(this.#deref(branch), value));
    if (candidates.length === 1) return candidates[0]!.problem;
    return { path, message: `matches none of the allowed shapes${shapeHint(branches.map((b) => this.#deref(b)), value)}` };
  }

  #deref(schema: SchemaNode): SchemaNode {
    return typeof schema.$ref === "string" ? this.#resolve(schema.$ref) : schema;
  }
}

function discriminatorMatches(branch: SchemaNode, value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const properties = branch.properties as Record<string, SchemaNode> | undefined;
  if (!properties) return false;
  let sawConst = false;
  for (const [key, property] of Object.entries(properties)) {
    if (!("const" in property)) continue;
    sawConst = true;
    if (!Object.hasOwn(value, key) || (value as Record<string, unknown>)[key] !== property.const) return false;
  }
  return sawConst;
}

function shapeHint(branches: SchemaNode[], value: unknown): string {
  const tags: string[] = [];
  for (const branch of branches) {
    const properties = branch.properties as Record<string, SchemaNode> | undefined;
    for (const [key, property] of Object.entries(properties ?? {})) {
      if ("const" in property) tags.push(`${key}=${JSON.stringify(property.const)}`);
    }
  }
  if (tags.length === 0) return ` (got ${typeName(value)})`;
  return ` (expected ${tags.join(" | ")})`;
}

function memberPath(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

function matchesType(type: string | string[], value: unknown): boolean {
  const types = Array.isArray(type) ? type : [type];
  return types.some((t) => {
    switch (t) {
      case "null": return value === null;
      case "string": return typeof value === "string";
      case "boolean": return typeof value === "boolean";
      case "integer": return Number.isInteger(value);
      case "number": return typeof value === "number" && Number.isFinite(value);
      case "array": return Array.isArray(value);
      case "object": return typeof value === "object" && value !== null && !Array.isArray(value);
      default: throw new Error(`unsupported type ${t}`);
    }
  });
}

function describeType(type: string | string[]): string {
  return Array.isArray(type) ? type.join(" or ") : type;
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (Number.isInteger(value)) return "integer";
  return typeof value;
}

/** Every keyword used anywhere in a schema, to prove the interpreter covers the file. */
export function keywordsUsed(schema: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) {
    for (const item of schema) keywordsUsed(item, into);
  } else if (typeof schema === "object" && schema !== null) {
    for (const [key, value] of Object.entries(schema)) {
      into.add(key);
      if (key === "properties" || key === "$defs") {
        for (const sub of Object.values(value as object)) keywordsUsed(sub, into);
      } else if (key !== "const" && key !== "enum" && key !== "required") {
        keywordsUsed(value, into);
      }
    }
  }
  return into;
}
