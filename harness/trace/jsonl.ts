import { closeSync, openSync, readFileSync, writeSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { gunzipSync, gzipSync } from "node:zlib";
import { canonicalJson } from "./canonical-json.ts";
import type { Trace, TraceEvent } from "./events.ts";

/**
 * The JSONL form of a trace: one event per line, keys in canonical (sorted) order at every
 * depth, so the same seed gives the same bytes apart from `durationMs` values.
 */
export function serializeTrace(trace: Trace): string {
  let out = "";
  for (const event of trace) out += `${canonicalJson(event)}\n`;
  return out;
}

export function parseTrace(text: string): Trace {
  const events: TraceEvent[] = [];
  text.split("\n").forEach((line, index) => pushEvent(events, line, index + 1));
  return events;
}

function pushEvent(events: TraceEvent[], line: string, lineNumber: number): void {
  if (line.trim() === "") return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch (error) {
    throw new Error(`trace line ${lineNumber} is not JSON: ${(error as Error).message}`);
  }
  if (parsed === null || typeof parsed !== "object" || typeof (parsed as { type?: unknown }).type !== "string") {
    throw new Error(`trace line ${lineNumber} is not an event (no "type" field)`);
  }
  events.push(parsed as TraceEvent);
}

/**
 * Parses JSONL bytes a slice at a time: a long scenario's trace is larger than the longest string
 * V8 allows, so it is never decoded whole. Characters split across slices are decoded intact.
 */
export function parseTraceBytes(bytes: Uint8Array, sliceBytes = 1 << 24): Trace {
  const events: TraceEvent[] = [];
  const decoder = new StringDecoder("utf8");
  let pending = "";
  let lineNumber = 0;
  for (let offset = 0; offset < bytes.length; offset += sliceBytes) {
    const lines = (pending + decoder.write(Buffer.from(bytes.buffer, bytes.byteOffset + offset, Math.min(sliceBytes, bytes.length - offset)))).split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) pushEvent(events, line, ++lineNumber);
  }
  pushEvent(events, pending + decoder.end(), ++lineNumber);
  return events;
}

/** Chunk size of streamed output: a long scenario's trace outgrows the longest string V8 allows. */
const CHUNK_CHARS = 1 << 22;

/** The JSONL form in chunks of whole lines, for traces too large for one string. */
export function streamTrace(trace: Trace, sink: (chunk: string) => void): void {
  let buffer = "";
  for (const event of trace) {
    buffer += `${canonicalJson(event)}\n`;
    if (buffer.length >= CHUNK_CHARS) {
      sink(buffer);
      buffer = "";
    }
  }
  if (buffer.length > 0) sink(buffer);
}

/** A path ending in `.gz` is written gzip-compressed (a long-session trace: 690 MB plain, 113 MB compressed). */
export const isGzipPath = (path: string): boolean => path.endsWith(".gz");

export function writeTraceFile(path: string, trace: Trace): void {
  const fd = openSync(path, "w");
  const gzip = isGzipPath(path);
  try {
    // Each chunk is its own gzip member; gunzip reads the concatenation as one stream.
    streamTrace(trace, gzip ? (chunk) => void writeSync(fd, gzipSync(chunk)) : (chunk) => void writeSync(fd, chunk));
  } finally {
    closeSync(fd);
  }
}

/** Reads a trace written by writeTraceFile, gzip-compressed or not (told by the file's first bytes). */
export function readTraceFile(path: string): Trace {
  const bytes = readFileSync(path);
  const gzipped = bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
  return parseTraceBytes(gzipped ? gunzipSync(bytes) : bytes);
}

/** The serialized trace with every `durationMs` value zeroed: equal for two runs of one seed. */
export function serializeTraceWithoutDurations(trace: Trace): string {
  let out = "";
  for (const event of trace) out += `${canonicalJson("durationMs" in event ? { ...event, durationMs: 0 } : event)}\n`;
  return out;
}
