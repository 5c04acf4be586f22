import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Message } from "../../harness/contract/types.ts";
import { isCarrier, parseCarrier } from "./carrier.ts";
import { LcmEngine } from "./index.ts";
import { completeTurns, fillerTurns, transcript } from "./test-transcripts.ts";

let home: string;
let engine: LcmEngine;
let history: Message[];

/** Every file under the sandbox with its bytes (as the conformance suite compares them). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      out[path] = readFileSync(path).toString("base64");
    }
  }
  return out;
}

const describeNode = (id: string, messages: Message[]) => JSON.parse(engine.handle_tool_call("lcm_describe", { node_id: id }, { messages })) as Record<string, unknown>;
const nodesOf = (messages: Message[]) => parseCarrier(messages.find(isCarrier) as Message).map((n) => n.id);

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "lcm-sandbox-"));
  engine = new LcmEngine();
  engine.update_model({ model: "m", context_length: 4_000 });
  engine.on_session_start("s1", { home });
  history = transcript("s1", fillerTurns(24));
  completeTurns(engine, "s1", history);
});
afterEach(() => {
  engine.close();
  rmSync(home, { recursive: true, force: true });
});

describe("lcm publishes a compaction pass only when the host commits it (THR-4)", () => {
  it("writes nothing to the sandbox during a pass, and publishes on the compression boundary", async () => {
    const before = snapshot(home);
    expect(Object.keys(before).some((p) => p.endsWith("lcm.sqlite"))).toBe(true);
    const output = await engine.compress(structuredClone(history));
    expect(snapshot(home)).toEqual(before);
    expect(describeNode(nodesOf(output)[0] as string, output)).toHaveProperty("error");

    engine.on_session_start("s1", { boundary_reason: "compression", old_session_id: "s1" });
    expect(snapshot(home)).not.toEqual(before);
    expect(describeNode(nodesOf(output)[0] as string, output)).toHaveProperty("depth", 0);
  });

  it("drops a pass the host aborts (timeout): the sandbox stays byte-identical and nothing is published later", async () => {
    const before = snapshot(home);
    const controller = new AbortController();
    const pending = engine.compress(structuredClone(history), null, null, { signal: controller.signal });
    controller.abort();
    const output = await pending;
    expect(snapshot(home)).toEqual(before);

    // A later boundary (another pass's commit) must not publish the aborted pass.
    engine.on_session_start("s1", { boundary_reason: "compression", old_session_id: "s1" });
    expect(snapshot(home)).toEqual(before);
    expect(describeNode(nodesOf(output)[0] as string, output)).toHaveProperty("error");
  });

  it("drops a pass whose signal aborts after it returned but before the commit", async () => {
    const before = snapshot(home);
    const controller = new AbortController();
    const output = await engine.compress(structuredClone(history), null, null, { signal: controller.signal });
    controller.abort();
    engine.on_session_start("s1", { boundary_reason: "compression", old_session_id: "s1" });
    expect(snapshot(home)).toEqual(before);
    expect(describeNode(nodesOf(output)[0] as string, output)).toHaveProperty("error");
  });

  it("publishes under a rotation: the child session sees the parent's nodes", async () => {
    const output = await engine.compress(structuredClone(history));
    engine.on_session_start("s1-child", { boundary_reason: "compression", old_session_id: "s1" });
    const child = output.map((m) => ({ ...m }));
    completeTurns(engine, "s1-child", child);
    expect(describeNode(nodesOf(output)[0] as string, child)).toHaveProperty("depth", 0);

    // The child's own first pass, before any turn of it completed, is published under the child.
    const more = [...child, ...transcript("s1-child", fillerTurns(20, 70)).slice(1)];
    const second = await engine.compress(structuredClone(more));
    engine.on_session_start("s1-child", { boundary_reason: "compression", old_session_id: "s1-child" });
    const newest = nodesOf(second).at(-1) as string;
    expect(newest).not.toBe(nodesOf(output)[0]);
    expect(describeNode(newest, second)).toHaveProperty("node_id", newest);
  });
});
