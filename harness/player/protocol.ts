import { readFileSync } from "node:fs";
import type { EngineInfo, EngineSpec } from "../plugins/spec.ts";
import type { SourceRef } from "../conformance/sources.ts";
import { fromJsonSchema } from "../util/json-schema.ts";
import type { Schema } from "../util/schema.ts";

/**
 * The parent ↔ player protocol (docs/player-protocol.md; every message has a JSON Schema in
 * protocol.schema.json, and both sides validate what they receive against it).
 */
export const PLAYER_PROTOCOL_VERSION = 1;

export interface ChannelLimits {
  /** Longest frame line the parent accepts, in bytes. */
  maxFrameBytes: number;
  /** Most bytes of trace frames one source may ship. */
  maxTraceBytes: number;
  /** Size a player aims its trace frames at. */
  chunkBytes: number;
}

export const DEFAULT_LIMITS: ChannelLimits = { maxFrameBytes: 16 * 1024 * 1024, maxTraceBytes: 512 * 1024 * 1024, chunkBytes: 1024 * 1024 };

export interface PlayerPlan {
  /** The engine to load; null for a player that runs engine-free work only. */
  engine: EngineSpec | null;
  /** A directory the player makes its runs' sandboxes in. */
  sandbox: string;
  limits: ChannelLimits;
}

/** An intrinsic the harness relies on that the engine replaced, added to or removed. */
export interface IntegrityFinding {
  kind: "intrinsic-replaced";
  /** e.g. `Array.prototype.some`. */
  target: string;
  change: "replaced" | "added" | "removed";
  /** `load` (at import or construction), or the label of the run during which it happened. */
  during: string;
}

export type Command =
  | { type: "hello"; protocol: typeof PLAYER_PROTOCOL_VERSION; plan: PlayerPlan }
  | PlayCommand
  | { type: "bench"; id: number; suite: string; options: { seed: number; quick: boolean } }
  | { type: "bye" };

export interface PlayCommand {
  type: "play";
  id: number;
  source: SourceRef;
  /** The scenario to play, built: a file's (`ctxbench run --scenario FILE`) or the catalogue's the parent built for its checks; without it the player builds the catalogue's. */
  scenario?: Record<string, unknown>;
  /** Exact token counts of a catalogue scenario's texts (scenarios/catalogue/text-tokens.ts), counted once per build, so the player need not count them. */
  textTokens?: number[];
  /** The engine's sandbox for this run (`ctxbench run --home`); default a fresh directory in the plan's sandbox. */
  home?: string;
  /** Where the host's session store goes; default beside the sandbox. */
  storePath?: string;
  compactionTimeoutMs?: number;
}

export interface SourceStats {
  events: number;
  /** Distinct messages in the shipped table. */
  messages: number;
  /** Bytes of the trace frames. */
  bytes: number;
  /** Time the play took in the player, and the shipping after it. */
  playMs: number;
  shipMs: number;
}

export type PlayerMessage =
  | { type: "ready"; protocol: typeof PLAYER_PROTOCOL_VERSION; engine: EngineInfo | null; integrity: IntegrityFinding[] }
  | { type: "load-failed"; message: string }
  | { type: "source-start"; id: number }
  | { type: "trace"; id: number; messages: unknown[]; events: Array<Record<string, unknown>> }
  | { type: "source-end"; id: number; status: "recorded" | "error"; message: string | null; stats: SourceStats; integrity: IntegrityFinding[] }
  | { type: "bench-result"; id: number; suite: string; result: Record<string, unknown> | null; message: string | null }
  | { type: "closing" };

const SCHEMA_URL = new URL("./protocol.schema.json", import.meta.url);

/** The protocol's JSON Schema, as published. */
export const PROTOCOL_SCHEMA = JSON.parse(readFileSync(SCHEMA_URL, "utf8")) as Record<string, unknown> & { $defs: Record<string, Record<string, unknown>> };

/** One message's schema, read from the published JSON Schema into the schema language (harness/util/schema.ts). */
export const protocolSchemaOf = (definition: string): Schema<unknown> => fromJsonSchema(PROTOCOL_SCHEMA, `#/$defs/${definition}`);
const validatorOf = protocolSchemaOf;
const MESSAGE_DEFINITIONS: Record<PlayerMessage["type"], string> = {
  ready: "ready",
  "load-failed": "loadFailed",
  "source-start": "sourceStart",
  trace: "trace",
  "source-end": "sourceEnd",
  "bench-result": "benchResult",
  closing: "closing",
};
const COMMAND_DEFINITIONS: Record<Command["type"], string> = { hello: "hello", play: "play", bench: "bench", bye: "bye" };
const messageValidators = new Map(Object.entries(MESSAGE_DEFINITIONS).map(([type, definition]) => [type, validatorOf(definition)]));
const commandValidators = new Map(Object.entries(COMMAND_DEFINITIONS).map(([type, definition]) => [type, validatorOf(definition)]));

export class ProtocolError extends Error {
  override name = "ProtocolError";
}

/** A player → parent message, checked against its schema; throws a ProtocolError naming the problem. */
export function asPlayerMessage(value: unknown): PlayerMessage {
  return checked(value, messageValidators, "message") as PlayerMessage;
}

/** A parent → player command, checked against its schema. */
export function asCommand(value: unknown): Command {
  return checked(value, commandValidators, "command") as Command;
}

function checked(value: unknown, validators: ReadonlyMap<string, Schema<unknown>>, what: string): unknown {
  const type = value !== null && typeof value === "object" && !Array.isArray(value) ? (value as { type?: unknown }).type : undefined;
  const validator = typeof type === "string" ? validators.get(type) : undefined;
  if (validator === undefined) throw new ProtocolError(`not a ${what} of protocol ${PLAYER_PROTOCOL_VERSION}: type ${JSON.stringify(type)}`);
  const problem = validator.check(value, "$");
  if (problem !== null) throw new ProtocolError(`${type} ${what}: ${problem.path}: ${problem.message}`);
  return value;
}
