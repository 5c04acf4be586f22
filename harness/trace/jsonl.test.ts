import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import type { Trace } from "./events.ts";
import { parseTrace, parseTraceBytes, readTraceFile, serializeTrace, writeTraceFile } from "./jsonl.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), "ctxbench-trace-"));
  dirs.push(dir);
  return dir;
}

/** Events with multi-byte text, so slice boundaries fall inside characters. */
function sampleTrace(events: number): Trace {
  return Array.from({ length: events }, (_, seq) => ({ type: "warning", seq, session: "s1", message: `naïve café ☕ 𝄞 ${seq}`, rule: null }) as Trace[number]);
}

describe("trace files", () => {
  it("reads back what it wrote, plain and gzip-compressed (told by content, not by name)", () => {
    const dir = scratch();
    const trace = sampleTrace(500);
    writeTraceFile(join(dir, "t.jsonl"), trace);
    writeTraceFile(join(dir, "t.jsonl.gz"), trace);
    expect(readTraceFile(join(dir, "t.jsonl"))).toEqual(trace);
    expect(readTraceFile(join(dir, "t.jsonl.gz"))).toEqual(trace);
    expect(gunzipSync(readFileSync(join(dir, "t.jsonl.gz"))).toString("utf8")).toBe(serializeTrace(trace));
    writeFileSync(join(dir, "renamed.jsonl"), readFileSync(join(dir, "t.jsonl.gz")));
    expect(readTraceFile(join(dir, "renamed.jsonl"))).toEqual(trace);
  });

  it("reads a compressed trace written in several gzip members (one per 4 MiB chunk) as one", () => {
    const dir = scratch();
    const trace = Array.from({ length: 12_000 }, (_, seq) => ({ type: "warning", seq, session: "s1", message: `${"x".repeat(400)} ${seq}`, rule: null }) as Trace[number]);
    writeTraceFile(join(dir, "big.jsonl.gz"), trace);
    const compressed = readFileSync(join(dir, "big.jsonl.gz"));
    const members = compressed.reduce((count, byte, at) => count + (byte === 0x1f && compressed[at + 1] === 0x8b && compressed[at + 2] === 8 ? 1 : 0), 0);
    expect(members).toBeGreaterThan(1);
    expect(readTraceFile(join(dir, "big.jsonl.gz"))).toEqual(trace);
  });

  it("parses bytes a slice at a time with the same result at every slice size, characters split or not", () => {
    const text = serializeTrace(sampleTrace(40));
    const bytes = Buffer.from(text, "utf8");
    for (const slice of [1, 2, 3, 7, 64, 1000, bytes.length, bytes.length + 1]) {
      expect(parseTraceBytes(bytes, slice), `slice ${slice}`).toEqual(parseTrace(text));
    }
  });

  it("names the line that is not an event", () => {
    const bytes = Buffer.from(`${serializeTrace(sampleTrace(2))}{"no":"type"}\n`, "utf8");
    expect(() => parseTraceBytes(bytes, 5)).toThrow(/trace line 3 is not an event/);
    expect(() => parseTraceBytes(Buffer.from("{oops\n"), 3)).toThrow(/trace line 1 is not JSON/);
  });
});
