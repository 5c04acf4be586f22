import Database from "better-sqlite3";
import { mkdtempSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Message } from "../../harness/contract/types.ts";
import { SessionStore, writeLegacyStore } from "../../harness/store/index.ts";
import { createSeededMinter } from "../../harness/store/uid.ts";
import { columnNames, UPSTREAM_LAYOUTS, writeUpstreamStore } from "../../harness/store/upstream-layouts.ts";
import { findScenarioProblem } from "../validate.ts";
import { sessionMessages } from "../transcript.ts";
import { sessionsFromStore } from "./hermes-store.ts";
import { ImportError, importScenarios } from "./index.ts";

const dir = mkdtempSync(join(tmpdir(), "ctxbench-import-"));
let counter = 0;
function file(name: string, text: string): string {
  const path = join(dir, `${counter++}-${name}`);
  writeFileSync(path, text);
  return path;
}

/** A coding transcript with a constant id repeated inside one response and across turns, and an image. */
function transcript(): Message[] {
  const call = (id: string, command: string) => ({ id, type: "function" as const, function: { name: "terminal", arguments: JSON.stringify({ command }) } });
  return [
    { role: "system", content: "You are a coding agent." },
    { role: "user", content: [{ type: "text", text: "Why is CI red?" }, { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } }] },
    { role: "assistant", content: null, tool_calls: [call("call_0", "npm test"), call("call_0", "git status")] },
    { role: "tool", tool_call_id: "call_0", content: "1 failing" },
    { role: "tool", tool_call_id: "call_0", content: "clean" },
    { role: "assistant", content: "One test fails: the date parser." },
    { role: "user", content: "Fix it." },
    { role: "assistant", content: "Patching.", tool_calls: [call("call_0", "npm test")] },
    { role: "tool", tool_call_id: "call_0", content: "all green" },
    { role: "assistant", content: "Fixed." },
  ];
}

/** An object nested 100,000 levels deep: parsing it is fine, every recursive copy of it overflows the stack. */
const DEEP = `${'{"k":'.repeat(100_000)}1${"}".repeat(100_000)}`;

/** The fields a replayed message must keep. */
function essence(messages: Message[]): Array<Record<string, unknown>> {
  const keys = ["role", "content", "tool_calls", "tool_call_id", "message_uid", "_tool_call_uids", "_tool_call_uid"];
  return messages.map((m) => Object.fromEntries(keys.filter((k) => m[k] !== undefined && m[k] !== null).map((k) => [k, m[k]])));
}

describe("importing an OpenAI-format message list", () => {
  it("replays user turns, assistant steps and tool results, ids as recorded", () => {
    const [scenario] = importScenarios(file("chat.json", JSON.stringify(transcript())));
    expect(findScenarioProblem(scenario)).toBeNull();
    const session = scenario!.sessions[0]!;
    expect(session.systemPrompt).toBe("You are a coding agent.");
    expect(session.turns).toHaveLength(2);
    expect(session.turns[0]!.steps[0]!.toolCalls!.map((c) => [c.id, c.result])).toEqual([["call_0", "1 failing"], ["call_0", "clean"]]);
    expect(essence(sessionMessages(session))).toEqual(essence(transcript()));
    expect(scenario!.schedule).toEqual([{ kind: "turn", session: session.id, turn: 0 }, { kind: "turn", session: session.id, turn: 1 }]);
  });

  it("reads JSONL the same way", () => {
    const jsonl = transcript().map((m) => JSON.stringify(m)).join("\n");
    const [scenario] = importScenarios(file("chat.jsonl", `${jsonl}\n`));
    expect(essence(sessionMessages(scenario!.sessions[0]!))).toEqual(essence(transcript()));
  });

  it("marks a call the transcript never answered", () => {
    const cut = transcript().slice(0, 4);
    const [scenario] = importScenarios(file("cut.json", JSON.stringify(cut)));
    const calls = scenario!.sessions[0]!.turns[0]!.steps[0]!.toolCalls!;
    expect(calls[0]!.resultMissing).toBeUndefined();
    expect(calls[1]!.resultMissing).toBe(true);
  });

  it.each([
    ["plain text", "hello there\n", "line 1: not JSON, JSONL or a SQLite session store"],
    ["a broken JSON array", '[{"role":"user",\n"content":"x"},\n{oops}]', "line 3: not valid JSON"],
    ["a broken JSONL line", '{"role":"user","content":"a"}\n{"role":"assistant","content":"b"}\n{"role":\n', "line 3: not valid JSON"],
    ["a message without a role (array)", '[{"role":"user","content":"a"},{"content":"b"}]', "message 1: message has no role"],
    ["a message without a role (JSONL)", '{"role":"user","content":"a"}\n{"content":"b"}\n', "line 2: message has no role"],
    ["an unknown role", '[{"role":"robot","content":"a"}]', 'message 0: unknown role "robot"'],
    ["an orphan tool result", '[{"role":"user","content":"a"},{"role":"tool","tool_call_id":"x","content":"b"}]', 'message 1: tool result "x" answers no'],
    ["an assistant before any user", '[{"role":"assistant","content":"a"}]', "message 0: assistant message before any user message"],
    ["an empty file", "", "the file is empty"],
    ["a content part nested past the limit (array)", `[{"role":"user","content":[{"type":"text","x":${DEEP}}]}]`, "$[0].content[0].x.k.k"],
    ["a content part nested past the limit (JSONL)", `{"role":"user","content":"a"}\n{"role":"assistant","content":[{"type":"text","x":${DEEP}}]}\n`, "line 2: $.content[0].x.k"],
  ])("refuses %s, naming the file and the line", (_label, text, message) => {
    const path = file("bad.json", text);
    expect(() => importScenarios(path)).toThrow(ImportError);
    expect(() => importScenarios(path)).toThrow(`${path}: ${message}`);
  });
});

/** The upstream schema versions whose stores the import is tested on (the layouts of harness/store/upstream-layouts.ts). */
const IMPORT_VERSIONS_COVERED = [1, 2, 3, 4, 5, 6, 22, 30, 31];

describe("importing from the session store", () => {
  function storeWithSession(path: string): SessionStore {
    const store = SessionStore.open(path, { mintUid: createSeededMinter(5), now: () => 1_700_000_000 });
    store.createSession("sess-a", { systemPrompt: "You are a coding agent." });
    const [, ...rest] = transcript();
    store.appendMessages("sess-a", rest.slice(0, 5));
    store.appendMessages("sess-a", rest.slice(5));
    return store;
  }

  it("round-trips an exported session: messages, tool calls and uids kept", () => {
    const store = storeWithSession(join(dir, "roundtrip.db"));
    const restored = store.getMessages("sess-a");
    const exported = store.exportSession("sess-a");
    store.close();
    expect(restored.every((m) => typeof m.message_uid === "string")).toBe(true);
    expect(restored.some((m) => m._tool_call_uids !== undefined)).toBe(true);
    const [scenario] = importScenarios(file("export.json", JSON.stringify(exported)));
    const session = scenario!.sessions[0]!;
    expect(session.id).toBe("sess-a");
    expect(session.systemPrompt).toBe("You are a coding agent.");
    expect(essence(sessionMessages(session).slice(1))).toEqual(essence(restored));
  });

  it("reads a v31 SQLite store directly, read-only", () => {
    const path = join(dir, "direct.db");
    const store = storeWithSession(path);
    const restored = store.getMessages("sess-a");
    store.close();
    const [scenario] = importScenarios(path);
    expect(essence(sessionMessages(scenario!.sessions[0]!).slice(1))).toEqual(essence(restored));
  });

  it("reads a v30 store written by an older build (no uids)", () => {
    const path = join(dir, "legacy.db");
    const [, ...rest] = transcript();
    writeLegacyStore(path, [{ id: "old", messages: rest }]);
    const [scenario] = importScenarios(path);
    const messages = sessionMessages(scenario!.sessions[0]!).slice(1);
    expect(essence(messages)).toEqual(essence(rest));
    expect(messages.some((m) => m.message_uid !== undefined)).toBe(false);
  });

  it("reads a store laid out as upstream's v31 (more columns, a model per session)", () => {
    const path = join(dir, "upstream.db");
    const db = new Database(path);
    db.exec(`
      CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (31);
      CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, user_id TEXT, model TEXT, system_prompt TEXT, parent_session_id TEXT, started_at REAL NOT NULL);
      CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL, content TEXT, tool_call_id TEXT,
        tool_calls TEXT, tool_name TEXT, effect_disposition TEXT, timestamp REAL NOT NULL, token_count INTEGER, finish_reason TEXT, reasoning TEXT,
        platform_message_id TEXT, observed INTEGER DEFAULT 0, _compressed_summary INTEGER NOT NULL DEFAULT 0, active INTEGER NOT NULL DEFAULT 1,
        compacted INTEGER NOT NULL DEFAULT 0, api_content TEXT, display_kind TEXT, display_metadata TEXT,
        message_uid TEXT, absorbed_message_uids TEXT, tool_call_uids TEXT, tool_call_uid TEXT);
      INSERT INTO sessions VALUES ('later', 'cli', NULL, 'model-b', 'sys b', NULL, 20), ('earlier', 'cli', NULL, 'model-a', 'sys a', NULL, 10);
    `);
    const insert = db.prepare("INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, timestamp, active, message_uid, tool_call_uids, tool_call_uid) VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?)");
    const calls = JSON.stringify([{ id: "call_x", type: "function", function: { name: "terminal", arguments: "{}" } }]);
    insert.run("earlier", "user", "go", null, null, 1, "a".repeat(32), null, null);
    insert.run("earlier", "assistant", null, null, calls, 1, "b".repeat(32), JSON.stringify({ call_x: "c".repeat(32) }), null);
    insert.run("earlier", "tool", "done", "call_x", null, 1, "d".repeat(32), null, "c".repeat(32));
    insert.run("earlier", "user", "archived", null, null, 0, "e".repeat(32), null, null);
    insert.run("later", "user", "hello", null, null, 1, "f".repeat(32), null, null);
    db.close();
    const scenarios = importScenarios(path);
    expect(scenarios.map((s) => [s.sessions[0]!.id, s.model, s.sessions[0]!.systemPrompt])).toEqual([["earlier", "model-a", "sys a"], ["later", "model-b", "sys b"]]);
    const turn = scenarios[0]!.sessions[0]!.turns[0]!;
    expect(scenarios[0]!.sessions[0]!.turns).toHaveLength(1);
    expect(turn.userMessageUid).toBe("a".repeat(32));
    expect(turn.steps[0]).toMatchObject({ messageUid: "b".repeat(32), toolCallUids: { call_x: "c".repeat(32) } });
    expect(turn.steps[0]!.toolCalls![0]).toMatchObject({ id: "call_x", result: "done", resultMessageUid: "d".repeat(32), resultToolCallUid: "c".repeat(32) });
  });

  it("refuses a store it cannot read, naming what failed: missing columns, a version that is no version, no schema_version table", () => {
    const path = join(dir, "columnless.db");
    const db = new Database(path);
    db.exec("CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (29); CREATE TABLE sessions (id TEXT); CREATE TABLE messages (id INTEGER)");
    db.close();
    expect(() => importScenarios(path)).toThrow(`${path}: messages: the messages table lacks session_id, role`);
    const zero = join(dir, "zero.db");
    const db0 = new Database(zero);
    db0.exec("CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (0); CREATE TABLE sessions (id TEXT); CREATE TABLE messages (id INTEGER)");
    db0.close();
    expect(() => importScenarios(zero)).toThrow(`${zero}: schema_version: holds 0, not a store schema version (a whole number from 1)`);
    const other = join(dir, "other.db");
    const db2 = new Database(other);
    db2.exec("CREATE TABLE notes (id INTEGER)");
    db2.close();
    expect(() => importScenarios(other)).toThrow(`${other}: not a Hermes session store: no schema_version table`);
    const ancient = join(dir, "ancient.db");
    const db3 = new Database(ancient);
    db3.exec("CREATE TABLE sessions (id TEXT PRIMARY KEY); CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT)");
    db3.close();
    expect(() => importScenarios(ancient)).toThrow(
      `${ancient}: has sessions and messages tables but no schema_version table: a layout older than Hermes schema v1, the oldest this import reads`,
    );
  });

  it(`covers the stores of upstream schema versions ${IMPORT_VERSIONS_COVERED.join(", ")}`, () => {
    expect(UPSTREAM_LAYOUTS.map((layout) => layout.version)).toEqual(IMPORT_VERSIONS_COVERED);
  });

  describe.each(UPSTREAM_LAYOUTS.map((layout) => [layout.version, layout] as const))("a store left by upstream schema v%i", (version, layout) => {
    it("imports its active messages, read-only: the file is not modified", () => {
      const path = join(dir, `upstream-v${version}.db`);
      const calls = JSON.stringify([{ id: "call_0", type: "function", function: { name: "read_file", arguments: "{}" } }]);
      writeUpstreamStore(path, layout, [
        {
          id: "recorded",
          row: { source: "cli", model: `model-v${version}`, system_prompt: "sys", started_at: 10 },
          messages: [
            { role: "user", content: "read a.ts", timestamp: 11 },
            { role: "assistant", content: null, tool_calls: calls, timestamp: 12, message_uid: "b".repeat(32), tool_call_uids: JSON.stringify({ call_0: "c".repeat(32) }) },
            { role: "tool", content: "const a = 1", tool_call_id: "call_0", timestamp: 13, tool_call_uid: "c".repeat(32) },
            { role: "user", content: "an archived row", timestamp: 14, active: 0 },
            { role: "assistant", content: "It defines a.", timestamp: 15 },
          ],
        },
      ]);
      const before = readFileSync(path);
      const [scenario] = importScenarios(path);
      expect(readFileSync(path).equals(before)).toBe(true);
      expect(scenario!.model).toBe(`model-v${version}`);
      const messages = sessionMessages(scenario!.sessions[0]!).slice(1);
      const hasActive = columnNames(layout.messages).includes("active");
      const hasIdentity = columnNames(layout.messages).includes("message_uid");
      const contents = ["read a.ts", null, "const a = 1", ...(hasActive ? [] : ["an archived row"]), "It defines a."];
      expect(messages.map((m) => m.content)).toEqual(contents);
      expect(messages[1]!.tool_calls).toEqual(JSON.parse(calls));
      expect(messages[1]!.message_uid).toBe(hasIdentity ? "b".repeat(32) : undefined);
      expect(messages[2]!._tool_call_uid).toBe(hasIdentity ? "c".repeat(32) : undefined);
    });
  });

  it("refuses a transcript past the size limit and a stored column nested past the depth limit, by name", () => {
    const huge = join(dir, "huge.jsonl");
    writeFileSync(huge, "");
    truncateSync(huge, 300 * 1024 * 1024);
    expect(() => importScenarios(huge)).toThrow(`${huge} is 300 MiB; ctxbench reads transcript files of at most 256 MiB`);
    const path = join(dir, "deeprow.db");
    storeWithSession(path).close();
    const db = new Database(path);
    const row = db.prepare("SELECT id FROM messages WHERE tool_calls IS NOT NULL ORDER BY id LIMIT 1").get() as { id: number };
    db.prepare("UPDATE messages SET tool_calls = ? WHERE id = ?").run(`[${DEEP}]`, row.id);
    db.close();
    expect(() => importScenarios(path)).toThrow(`${path}: messages row ${row.id}: tool_calls: $[0].k.k.k`);
    expect(() => importScenarios(path)).toThrow("nested deeper than 64 levels");
    const big = join(dir, "big.db");
    storeWithSession(big).close();
    expect(sessionsFromStore(big, 1 << 20)).toHaveLength(1);
    expect(() => sessionsFromStore(big, 100)).toThrow(`${big}: its active messages hold more than 100 bytes of text, the most an import reads`);
  });

  it("names the row when a stored message cannot be read", () => {
    const path = join(dir, "badrow.db");
    const store = storeWithSession(path);
    store.close();
    const db = new Database(path);
    const row = db.prepare("SELECT id FROM messages WHERE tool_calls IS NOT NULL ORDER BY id LIMIT 1").get() as { id: number };
    db.prepare("UPDATE messages SET tool_calls = '[not json' WHERE id = ?").run(row.id);
    db.close();
    expect(() => importScenarios(path)).toThrow(`${path}: messages row ${row.id}: tool_calls is not valid JSON`);
  });
});
