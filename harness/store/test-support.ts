import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import type { Message, ToolCall } from "../contract/types.ts";
import { SessionStore } from "./session-store.ts";
import type { SessionStoreOptions } from "./types.ts";

/** Helpers shared by the store's tests: real files in a temporary directory, message builders. */
export function tempDir(): { dir: string; file: (name?: string) => string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "ctxbench-store-"));
  return { dir, file: (name = "state.db") => join(dir, name), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function openStore(path: string, options: SessionStoreOptions = {}): SessionStore {
  let tick = 1_700_000_000;
  return SessionStore.open(path, { now: () => tick++, ...options });
}

/** A raw connection for reading columns exactly as stored. */
export function rawDb(path: string): Database.Database {
  return new Database(path);
}

export const user = (content: string, extra: Partial<Message> = {}): Message => ({ role: "user", content, ...extra });
export const assistant = (content: string | null, calls: ToolCall[] = [], extra: Partial<Message> = {}): Message => ({
  role: "assistant",
  content,
  ...(calls.length > 0 ? { tool_calls: calls } : {}),
  ...extra,
});
export const result = (toolCallId: string, content: string, extra: Partial<Message> = {}): Message => ({
  role: "tool",
  tool_call_id: toolCallId,
  content,
  ...extra,
});
export const call = (id: string, name = "read_file", args = "{}"): ToolCall => ({ id, type: "function", function: { name, arguments: args } });

export const HEX32 = /^[0-9a-f]{32}$/;
export const uidOf = (message: Message | undefined): string => {
  const uid = message?.message_uid;
  if (typeof uid !== "string") throw new Error("message has no uid");
  return uid;
};
