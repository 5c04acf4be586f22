import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { asCommand, asPlayerMessage, DEFAULT_LIMITS, PLAYER_PROTOCOL_VERSION, PROTOCOL_SCHEMA, protocolSchemaOf, ProtocolError } from "./protocol.ts";

const info = { name: "x", selection: "x", reportedName: "x", version: null, language: "typescript", path: "directory", bundled: false, location: "/p/x", directoryName: "x", manifestName: "x", notices: [] };
const stats = { events: 1, messages: 0, bytes: 10, playMs: 1, shipMs: 0 };

describe("the player protocol's schema", () => {
  it("uses only keywords the schema language reads (reading a definition throws on any other)", () => {
    // A definition is read when first used: use each once.
    for (const definition of Object.keys(PROTOCOL_SCHEMA.$defs)) expect(() => protocolSchemaOf(definition).check(null, "$"), definition).not.toThrow();
  });

  it("accepts every message of version 1", () => {
    const messages = [
      { type: "ready", protocol: PLAYER_PROTOCOL_VERSION, engine: info, integrity: [] },
      { type: "ready", protocol: PLAYER_PROTOCOL_VERSION, engine: null, integrity: [{ kind: "intrinsic-replaced", target: "Array.prototype.some", change: "replaced", during: "load" }] },
      { type: "load-failed", message: "x: no engine" },
      { type: "source-start", id: 0 },
      { type: "trace", id: 0, messages: [{ role: "user" }], events: [{ seq: 0, type: "request", session: "a", messages: [0] }] },
      { type: "source-end", id: 0, status: "recorded", message: null, stats, integrity: [] },
      { type: "bench-result", id: 1, suite: "overhead", result: { suite: "overhead" }, message: null },
      { type: "closing" },
    ];
    for (const message of messages) expect(asPlayerMessage(message)).toBe(message);
    const commands = [
      { type: "hello", protocol: 1, plan: { engine: { name: "x", selection: "x", candidates: [{ path: "directory", location: "/p/x", entry: "/p/x/index.ts", language: "typescript", bundled: false, manifest: { name: "x", version: null, description: "", searchTool: { tool: "find", parameter: null } }, mode: null }], runtime: { python: null, hermesAgent: null, config: null } }, sandbox: "/s", limits: DEFAULT_LIMITS } },
      { type: "play", id: 0, source: { kind: "probe", name: "usage", seed: 1 } },
      { type: "play", id: 1, source: { kind: "scenario", name: "file", seed: 2 }, scenario: {}, home: "/h", storePath: "/h.db", compactionTimeoutMs: 10 },
      { type: "play", id: 3, source: { kind: "scenario", name: "basic", seed: 1 }, scenario: {}, textTokens: [0, 12] },
      { type: "bench", id: 2, suite: "cache", options: { seed: 1, quick: true } },
      { type: "bye" },
    ];
    for (const command of commands) expect(asCommand(command)).toBe(command);
  });

  it("refuses a play command whose token counts are not whole numbers of tokens", () => {
    for (const textTokens of [[-1], [1.5], ["3"], 3]) {
      expect(() => asCommand({ type: "play", id: 0, source: { kind: "scenario", name: "basic", seed: 1 }, scenario: {}, textTokens })).toThrow(/\$\.textTokens/);
    }
  });

  it.each([
    [{ type: "result", id: "ABC-1", outcome: "pass" }, /not a message of protocol 1: type "result"/],
    [{ type: "ready", protocol: 2, engine: null, integrity: [] }, /ready message: \$\.protocol: expected 1/],
    [{ type: "source-end", id: -1, status: "recorded", message: null, stats, integrity: [] }, /\$\.id: must be >= 0/],
    [{ type: "source-end", id: 0, status: "passed", message: null, stats, integrity: [] }, /\$\.status: expected "recorded" or "error", got the string "passed"/],
    [{ type: "trace", id: 0, messages: [], events: [{ seq: 0, type: "verdict", session: null }] }, /\$\.events\[0\]\.type/],
    [{ type: "closing", extra: true }, /unknown property "extra"/],
    ["done", /type undefined/],
  ])("refuses %j", (value, message) => {
    expect(() => asPlayerMessage(value)).toThrow(ProtocolError);
    expect(() => asPlayerMessage(value)).toThrow(message);
  });

  it("names every message in docs/player-protocol.md", () => {
    const doc = readFileSync(new URL("../../docs/player-protocol.md", import.meta.url), "utf8");
    for (const type of ["hello", "play", "bench", "bye", "ready", "load-failed", "source-start", "trace", "source-end", "bench-result", "closing"]) expect(doc, type).toContain(`\`${type}\``);
  });
});
