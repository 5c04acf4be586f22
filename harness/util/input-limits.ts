import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { UsageError } from "./errors.ts";

/**
 * Bounds on what ctxbench reads from a file it is given, so an oversized or pathologically deep
 * input is a named error (exit 2) and never an out-of-memory abort or a stack overflow that
 * reads as ctxbench's own bug.
 */

/** The largest file read into memory: scenario, transcript and result files. */
export const MAX_INPUT_BYTES = 256 * 1024 * 1024;

/**
 * The deepest nesting of arrays and objects accepted in JSON input. Real content parts, tool
 * calls and trace evidence nest a handful of levels; every recursive copy, comparison and
 * serialisation downstream stays far inside the stack at this depth.
 */
export const MAX_JSON_DEPTH = 64;

export class InputTooLargeError extends UsageError {}

export function describeBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024 * 1024)).toFixed(1)} GiB`;
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(bytes >= 10 * 1024 * 1024 ? 0 : 1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(0)} KiB`;
  return `${bytes} bytes`;
}

/**
 * The text of a file of at most `limit` bytes (UTF-8). The size is taken from the open file,
 * so a file that grows after the check is still read only up to the limit.
 */
export function readTextInput(path: string, what: string, limit = MAX_INPUT_BYTES): string {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    if (size > limit) {
      throw new InputTooLargeError(`${path} is ${describeBytes(size)}; ctxbench reads ${what} of at most ${describeBytes(limit)}`);
    }
    const buffer = Buffer.alloc(size);
    let read = 0;
    while (read < size) {
      const n = readSync(fd, buffer, read, size - read, read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

function isContainer(value: unknown): value is object {
  return typeof value === "object" && value !== null;
}

interface Frame {
  node: Record<string, unknown> | unknown[];
  keys: string[] | null;
  next: number;
}

function frameOf(node: object): Frame {
  return Array.isArray(node) ? { node, keys: null, next: 0 } : { node: node as Record<string, unknown>, keys: Object.keys(node), next: 0 };
}

function member(frame: Frame, index: number): string {
  if (frame.keys === null) return `[${index}]`;
  const key = frame.keys[index]!;
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/** Members of a too-deep path that are spelled out; the rest is elided (they only say "deeper"). */
const PATH_MEMBERS_SHOWN = 12;

/** Why parsed JSON is refused, and where. */
export interface JsonInputProblem {
  path: string;
  message: string;
}

function pathOf(stack: readonly Frame[]): string {
  const members = stack.slice(0, PATH_MEMBERS_SHOWN).map((frame) => member(frame, frame.next - 1));
  return `$${members.join("")}${stack.length > PATH_MEMBERS_SHOWN ? "…" : ""}`;
}

/**
 * The first thing in parsed JSON that ctxbench refuses, or null: an array or object nested
 * deeper than `maxDepth` levels (the root is level 1; every recursive copy of it would overflow
 * the stack), or a "__proto__" key (JSON.parse keeps it as data, but an assignment or a copy in
 * JavaScript takes it for the object's prototype). Past its first few members the path ends in
 * "…". Iterative, so the check itself cannot overflow the stack.
 */
export function jsonInputProblem(value: unknown, maxDepth = MAX_JSON_DEPTH): JsonInputProblem | null {
  if (!isContainer(value)) return null;
  if (maxDepth < 1) return { path: "$", message: `nested deeper than ${maxDepth} levels of arrays and objects` };
  const stack: Frame[] = [frameOf(value)];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const length = top.keys === null ? (top.node as unknown[]).length : top.keys.length;
    if (top.next >= length) {
      stack.pop();
      continue;
    }
    const index = top.next++;
    if (top.keys !== null && top.keys[index] === "__proto__") {
      return { path: pathOf(stack), message: 'the key "__proto__" is not accepted (JavaScript takes it for the prototype)' };
    }
    const child = top.keys === null ? (top.node as unknown[])[index] : (top.node as Record<string, unknown>)[top.keys[index]!];
    if (!isContainer(child)) continue;
    if (stack.length >= maxDepth) return { path: pathOf(stack), message: `nested deeper than ${maxDepth} levels of arrays and objects` };
    stack.push(frameOf(child));
  }
  return null;
}
