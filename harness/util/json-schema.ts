/**
 * Reads a JSON Schema document (the subset ctxbench's own schema files use) into the schema
 * language of schema.ts, for schemas that must stay JSON files because another language reads
 * them too (the engine protocol's, which the Python bridge is tested against). One validator, one
 * way of naming problems, whichever way a schema was written.
 */
import {
  anyJson,
  array,
  boolean,
  integer,
  lazy,
  literal,
  nullValue,
  number,
  object,
  optional,
  string,
  taggedUnion,
  union,
  type ObjectSchema,
  type Properties,
  type Schema,
} from "./schema.ts";

type Node = Record<string, unknown>;

const KNOWN = new Set([
  "$schema", "$id", "$ref", "$defs", "$comment", "title", "description", "type", "properties", "required", "additionalProperties",
  "items", "enum", "const", "oneOf", "anyOf", "minimum", "maximum", "minItems", "minLength", "pattern",
]);

/** The document's root as a schema; `ref` picks another entry point (`#/$defs/Name`). */
export function fromJsonSchema(document: Node, ref?: string): Schema<unknown> {
  const cache = new Map<string, Schema<unknown>>();
  const resolve = (pointer: string): Schema<unknown> => {
    if (!pointer.startsWith("#/")) throw new Error(`unsupported $ref ${pointer}`);
    let schema = cache.get(pointer);
    if (schema === undefined) {
      cache.set(pointer, (schema = lazy(() => {
        let node: unknown = document;
        for (const part of pointer.slice(2).split("/")) node = typeof node === "object" && node !== null && Object.hasOwn(node, part) ? (node as Node)[part] : undefined;
        if (typeof node !== "object" || node === null) throw new Error(`dangling $ref ${pointer}`);
        return compile(node as Node, pointer);
      })));
    }
    return schema;
  };

  const compile = (node: Node, at: string): Schema<unknown> => {
    for (const keyword of Object.keys(node)) if (!KNOWN.has(keyword)) throw new Error(`${at}: the JSON Schema keyword "${keyword}" is not supported`);
    if (typeof node.$ref === "string") return resolve(node.$ref);
    if ("const" in node) return literal(node.const as string | number | boolean);
    if (Array.isArray(node.enum)) return union(node.enum.map((value) => (value === null ? nullValue() : literal(value as string | number | boolean))));
    const alternatives = (node.oneOf ?? node.anyOf) as Node[] | undefined;
    if (Array.isArray(alternatives)) return alternativesOf(alternatives.map((branch, i) => compile(branch, `${at}/oneOf/${i}`)), alternatives);
    const types = node.type === undefined ? [implicitType(node)] : Array.isArray(node.type) ? (node.type as string[]) : [node.type as string];
    const schemas = types.map((type) => typed(type, node, at));
    return schemas.length === 1 ? schemas[0]! : union(schemas);
  };

  const typed = (type: string | null, node: Node, at: string): Schema<unknown> => {
    const bounds = { ...(typeof node.minimum === "number" ? { minimum: node.minimum } : {}), ...(typeof node.maximum === "number" ? { maximum: node.maximum } : {}) };
    switch (type) {
      case "string":
        return string({ ...(typeof node.minLength === "number" ? { minLength: node.minLength } : {}), ...(typeof node.pattern === "string" ? { pattern: node.pattern } : {}) });
      case "integer":
        return integer(bounds);
      case "number":
        return number(bounds);
      case "boolean":
        return boolean();
      case "null":
        return nullValue();
      case "array":
        return array(node.items && typeof node.items === "object" ? compile(node.items as Node, `${at}/items`) : anyJson(), typeof node.minItems === "number" ? { minItems: node.minItems } : {});
      case "object": {
        const required = new Set((node.required as string[] | undefined) ?? []);
        const properties: Properties = {};
        for (const [key, child] of Object.entries((node.properties as Record<string, Node> | undefined) ?? {})) {
          const schema = compile(child, `${at}/properties/${key}`);
          properties[key] = required.has(key) ? schema : optional(schema);
        }
        for (const key of required) if (!Object.hasOwn(properties, key)) properties[key] = anyJson();
        const extra = node.additionalProperties;
        return object(properties, extra === false ? {} : typeof extra === "object" && extra !== null ? { additional: compile(extra as Node, `${at}/additionalProperties`) } : { open: true });
      }
      case null:
        return anyJson();
      default:
        throw new Error(`${at}: unsupported type ${JSON.stringify(type)}`);
    }
  };

  return ref === undefined ? compile(document, "#") : resolve(ref);
}

function implicitType(node: Node): string | null {
  if ("properties" in node || "required" in node || "additionalProperties" in node) return "object";
  if ("items" in node) return "array";
  return null;
}

/** Object branches that all carry one required const property are a tagged union; anything else a union. */
function alternativesOf(schemas: Schema<unknown>[], branches: Node[]): Schema<unknown> {
  const objects = schemas.filter((schema): schema is ObjectSchema<Properties> => "properties" in schema);
  if (objects.length === schemas.length && objects.length > 1) {
    const tags = Object.keys(objects[0]!.properties).filter((key) => objects.every((candidate) => {
      const property = candidate.properties[key];
      return property !== undefined && !("optional" in property) && property.constant !== undefined;
    }));
    if (tags.length > 0 && new Set(objects.map((candidate) => (candidate.properties[tags[0]!] as Schema<unknown>).constant)).size === objects.length) {
      return taggedUnion(tags[0]!, objects);
    }
  }
  void branches;
  return union(schemas);
}
