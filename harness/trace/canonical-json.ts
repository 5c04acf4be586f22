import { createHash, type Hash } from "node:crypto";
import { sha256Hex } from "../util/sha256.ts";
import type { ValueDigest } from "./events.ts";

/**
 * Reuses the canonical JSON of objects that never change once written (the host's persisted
 * messages), so digesting a long history per call costs a join, not a re-serialization.
 */
export interface JsonMemo {
  cache: WeakMap<object, string>;
  /** True for an object whose content is final; only those are cached. */
  isStable(value: object): boolean;
  /** Digests of lists of stable objects, as tries of their prefixes, one per text before the list (see digestValue). */
  lists?: Map<string, ListPrefix>;
  /** The last walk down each trie: its stable elements and the node after each, by the text before the list. */
  walks?: Map<string, ListWalk>;
}

/** A list's start, up to some stable element: the hash of its canonical JSON so far, and what follows it. */
interface ListPrefix {
  hash: Hash;
  size: number;
  next: WeakMap<object, ListPrefix>;
}

/** A walk down a trie: `nodes[i]` is the node after `items[i]`. */
interface ListWalk {
  items: unknown[];
  nodes: ListPrefix[];
}

/**
 * Canonical JSON: object keys sorted, `undefined` members dropped (as JSON.stringify), non-finite
 * numbers as null, functions and symbols omitted, bigint as a decimal string and a repeated
 * ancestor as "[Circular]". Deterministic for any value an engine may hand back.
 */
export function canonicalJson(value: unknown, memo?: JsonMemo): string {
  return write(value, new Set<object>(), memo) ?? "null";
}

function write(value: unknown, ancestors: Set<object>, memo: JsonMemo | undefined): string | undefined {
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
  if (memo !== undefined) {
    const cached = memo.cache.get(object);
    if (cached !== undefined) return cached;
  }
  if (ancestors.has(object)) return '"[Circular]"';
  if (Array.isArray(object)) {
    // A shipped trace's message references: join writes a finite number as JSON does.
    if (finiteNumbers(object)) return `[${object.join(",")}]`;
  } else {
    const sorted = sortedTree(object);
    if (sorted !== undefined) {
      const out = JSON.stringify(sorted);
      if (memo !== undefined && memo.isStable(object)) memo.cache.set(object, out);
      return out;
    }
  }
  ancestors.add(object);
  let out: string;
  if (Array.isArray(object)) {
    out = "[";
    for (let index = 0; index < object.length; index++) {
      if (index > 0) out += ",";
      out += write(object[index], ancestors, memo) ?? "null";
    }
    out += "]";
  } else {
    const record = object as Record<string, unknown>;
    const keys = Object.keys(record);
    if (keys.length > 1) keys.sort();
    out = "{";
    let first = true;
    for (const key of keys) {
      const text = write(record[key], ancestors, memo);
      if (text === undefined) continue;
      if (!first) out += ",";
      out += `${JSON.stringify(key)}:${text}`;
      first = false;
    }
    out += "}";
  }
  ancestors.delete(object);
  if (memo !== undefined && memo.isStable(object)) memo.cache.set(object, out);
  return out;
}

/** Deeper than this, a tree goes the general way (which also names a cycle). */
const SORTED_TREE_DEPTH = 32;
const NO_TREE = Symbol("no plain tree");

/**
 * A copy of a tree whose objects are plain, prototype-less and hold their own enumerable keys in
 * sorted order, for JSON.stringify to write canonically (several times faster than the general
 * path's concatenation): it drops undefined, functions and symbols in objects, writes them and
 * non-finite numbers as null in arrays, and finds no toJSON on a copy, as canonicalJson does.
 * Undefined where it would still differ: a bigint, a key that starts with a digit (JavaScript
 * puts integer-like keys first, whatever the insertion order), a cycle, or a tree too deep.
 */
function sortedTree(object: object): object | undefined {
  const result = sortedNode(object, []);
  return result === NO_TREE ? undefined : (result as object);
}

/** `path` holds the objects above `value`: a cycle goes the general way, which writes it as "[Circular]". */
function sortedNode(value: unknown, path: object[]): unknown {
  if (value === null || typeof value !== "object") return typeof value === "bigint" ? NO_TREE : value;
  if (path.length > SORTED_TREE_DEPTH || path.includes(value)) return NO_TREE;
  path.push(value);
  const copy = sortedMembers(value, path);
  path.pop();
  return copy;
}

function sortedMembers(value: object, path: object[]): unknown {
  if (Array.isArray(value)) {
    if (primitivesOnly(value)) return value;
    const out = new Array<unknown>(value.length);
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      const copy = sortedNode(item, path);
      if (copy === NO_TREE) return NO_TREE;
      out[index] = copy;
    }
    return out;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length > 1) keys.sort();
  const out = Object.create(null) as Record<string, unknown>;
  for (const key of keys) {
    const code = key.charCodeAt(0);
    if (code >= 48 && code <= 57) return NO_TREE;
    const copy = sortedNode(record[key], path);
    if (copy === NO_TREE) return NO_TREE;
    out[key] = copy;
  }
  return out;
}

/**
 * An array JSON.stringify writes exactly as canonicalJson does, so the tree may share it instead
 * of copying it (a shipped event's message references are thousands of numbers): no object, no
 * bigint, and no toJSON of its own. Undefined, functions, symbols and non-finite numbers are null
 * in an array either way.
 */
function primitivesOnly(list: readonly unknown[]): boolean {
  if (Object.hasOwn(list, "toJSON")) return false;
  for (let index = 0; index < list.length; index++) {
    const item = list[index];
    if ((item !== null && typeof item === "object") || typeof item === "bigint") return false;
  }
  return true;
}

function finiteNumbers(list: readonly unknown[]): boolean {
  if (list.length === 0) return false;
  for (let index = 0; index < list.length; index++) {
    const item = list[index];
    if (typeof item !== "number" || !Number.isFinite(item)) return false;
  }
  return true;
}

/**
 * sha256 of the canonical JSON (first 16 hex) and its length in characters. With a memo, a list
 * whose elements are stable objects is hashed along a trie of the prefixes seen before: a host
 * hands an engine the same history call after call, one message longer each time, so a call
 * hashes only the elements it has not seen at that position instead of the whole history. So is
 * the one list member of an object (select_context's options hold conversation_messages), its
 * trie keyed by the object's text before the list.
 */
export function digestValue(value: unknown, memo?: JsonMemo): ValueDigest {
  if (memo !== undefined && value !== null && typeof value === "object" && !memo.cache.has(value)) {
    if (Array.isArray(value)) return digestList(value, memo, "[", "]", new Set([value]));
    const split = splitAtList(value as Record<string, unknown>, memo);
    if (split !== null) return digestList(split.list, memo, split.opening, split.closing, split.ancestors);
  }
  const json = canonicalJson(value, memo);
  return { digest: sha256Hex(json).slice(0, 16), size: json.length };
}

/** An object with exactly one array member, written around it: the text before the list's first element and after its last. */
function splitAtList(record: Record<string, unknown>, memo: JsonMemo): { opening: string; list: readonly unknown[]; closing: string; ancestors: Set<object> } | null {
  const keys = Object.keys(record);
  if (keys.filter((key) => Array.isArray(record[key])).length !== 1) return null;
  if (keys.length > 1) keys.sort();
  const ancestors = new Set<object>([record]);
  let opening = "{";
  let closing = "";
  let list: readonly unknown[] | null = null;
  let first = true;
  for (const key of keys) {
    const value = record[key];
    if (Array.isArray(value)) {
      opening += `${first ? "" : ","}${JSON.stringify(key)}:[`;
      list = value;
      first = false;
      continue;
    }
    const text = write(value, ancestors, memo);
    if (text === undefined) continue;
    const member = `${first ? "" : ","}${JSON.stringify(key)}:${text}`;
    first = false;
    if (list === null) opening += member;
    else closing += member;
  }
  ancestors.add(list!);
  return { opening, list: list!, closing: `]${closing}}`, ancestors };
}

const LIST_ROOTS_LIMIT = 64;

function digestList(list: readonly unknown[], memo: JsonMemo, opening: string, closing: string, ancestors: Set<object>): ValueDigest {
  memo.lists ??= new Map();
  memo.walks ??= new Map();
  let root = memo.lists.get(opening);
  if (root === undefined) {
    if (memo.lists.size >= LIST_ROOTS_LIMIT) {
      memo.lists.clear();
      memo.walks.clear();
    }
    root = { hash: createHash("sha256").update(opening), size: opening.length, next: new WeakMap() };
    memo.lists.set(opening, root);
  }
  let walk = memo.walks.get(opening);
  if (walk === undefined) memo.walks.set(opening, (walk = { items: [], nodes: [] }));
  // The elements the last walk went through, the very same objects, lead to the same nodes: a
  // history handed out call after call is compared by identity, not looked up element by element.
  let index = 0;
  const shared = Math.min(list.length, walk.items.length);
  while (index < shared && list[index] === walk.items[index]) index++;
  walk.items.length = index;
  walk.nodes.length = index;
  let node: ListPrefix = index > 0 ? walk.nodes[index - 1]! : root;
  const element = (at: number) => (at > 0 ? "," : "") + (write(list[at], ancestors, memo) ?? "null");
  for (; index < list.length; index++) {
    const item = list[index];
    if (item === null || typeof item !== "object" || !memo.isStable(item)) break;
    let child: ListPrefix | undefined = node.next.get(item);
    if (child === undefined) {
      const text = element(index);
      child = { hash: node.hash.copy().update(text), size: node.size + text.length, next: new WeakMap() };
      node.next.set(item, child);
    }
    node = child;
    walk.items.push(item);
    walk.nodes.push(node);
  }
  // The rest (from the first element that is not stable) is hashed as it comes.
  const hash = node.hash.copy();
  let size = node.size;
  for (; index < list.length; index++) {
    const text = element(index);
    hash.update(text);
    size += text.length;
  }
  hash.update(closing);
  return { digest: hash.digest("hex").slice(0, 16), size: size + closing.length };
}
