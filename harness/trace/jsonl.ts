import { closeSync, openSync, readFileSync, writeSync } from "node:fs";
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
  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (line.trim() === "") continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (error) {
      throw new Error(`trace line ${index + 1} is not JSON: ${(error as Error).message}`);
    }
    if (parsed === null || typeof parsed !== "object" || typeof (parsed as { type?: unknown }).type !== "string") {
      throw new Error(`trace line ${index + 1} is not an event (no "type" field)`);
    }
    events.push(parsed as TraceEvent);
  }
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

export function writeTraceFile(path: string, trace: Trace): void {
  const fd = openSync(path, "w");
  try {
    streamTrace(trace, (chunk) => void writeSync(fd, chunk));
  } finally {
    closeSync(fd);
  }
}

export function readTraceFile(path: string): Trace {
  return parseTrace(readFileSync(path, "utf8"));
}

/** The serialized trace with every `durationMs` value zeroed: equal for two runs of one seed. */
export function serializeTraceWithoutDurations(trace: Trace): string {
  let out = "";
  for (const event of trace) out += `${canonicalJson("durationMs" in event ? { ...event, durationMs: 0 } : event)}\n`;
  return out;
}
