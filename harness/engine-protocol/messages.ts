/**
 * The engine protocol's messages (version 2), as TypeScript types. docs/engine-protocol.md is the
 * prose; protocol.schema.json, beside this file, is the schema both sides are tested against.
 */
import type { HostModuleRecord, NativeSignature } from "../contract/native.ts";

export const ENGINE_PROTOCOL_VERSION = 2;

/** JSON-RPC error codes the engine side answers with. */
export const ERROR_CODES = {
  parse: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  engineRaised: -32000,
  loadFailed: -32001,
  unknownHandle: -32002,
  notInitialized: -32003,
  llmFailed: -32010,
} as const;

/**
 * How the engine side loads the plugin: the upstream directory path, the general plugin path
 * (plugin.yaml + register(ctx)), a hermes-agent checkout's built-in ContextCompressor, or (Node
 * adapter) a TypeScript/JavaScript entry module.
 */
export type PluginMode = "directory" | "general" | "builtin-compressor" | "module";

export interface PluginManifestInfo {
  name: string;
  version: string | null;
  description: string;
}

export interface InitializeParams {
  protocol: number;
  plugin: {
    mode: PluginMode;
    directory: string;
    /** The name the engine is selected by (the directory name, or `context.engine`). */
    selection: string;
    manifest?: PluginManifestInfo | null;
    /** Node adapter: the entry module; a named export to construct instead of the plugin's own choice. */
    entry?: string;
    exportName?: string;
  };
  /** The engine's sandbox (HERMES_HOME for a Python engine). */
  home: string;
  /** The run's config (what `load_config()` returns; written to `$HERMES_HOME/config.yaml`). */
  config: Record<string, unknown>;
  /** A hermes-agent checkout whose real modules the engine may import. */
  hermesAgent?: string | null;
  /** The model name the built-in compressor is constructed with. */
  model?: string;
}

export interface InitializeResult {
  protocol: number;
  runtime: { language: string; version: string; implementation?: string; executable?: string; flags?: Record<string, boolean> };
  module: string | null;
  hostModules: HostModuleRecord[];
  optionalPackages: Record<string, boolean>;
  stubs: Array<{ module: string; why: string }>;
  warnings: string[];
  /** Optional parts of the protocol the engine side speaks (`message-refs`); absent: none. */
  features?: string[];
}

export interface EngineDescription {
  handle: number;
  via: string | null;
  name: string | null;
  nameError: string | null;
  nameType: string | null;
  class: { module: string; qualname: string; mro: string[]; isSubclassOfABC: boolean; isInstanceOfABC: boolean; abstractMissing: string[] };
  contract: { isContextEngine: boolean; members: Record<string, string>; nameType: string };
  overrides: Record<string, boolean>;
  signatures: Record<string, NativeSignature>;
  compressKeywords: string[];
  attrs: Record<string, unknown>;
  attrTypes: Record<string, string>;
  registrations: Record<string, unknown>;
  toolSchemas: unknown;
  toolSchemasError?: string;
}

export interface ParamChange {
  param: string;
  value: unknown;
  paths: string[];
}

export interface CallResult {
  type: string;
  value?: unknown;
  json: boolean;
  awaitable?: boolean;
  sameAs?: string;
  engine?: EngineDescription;
  mutated?: ParamChange[];
  attrs: Record<string, unknown>;
  attrTypes: Record<string, string>;
}

/** `error.data` of an engineRaised answer. */
export interface RaisedData {
  type: string;
  message: string;
  traceback: string;
  attrs: Record<string, unknown>;
  attrTypes: Record<string, string>;
  mutated?: ParamChange[];
}

/** The engine asks the host's LLM (Python's `agent.auxiliary_client.call_llm`). */
export interface LlmCallParams {
  task: string | null;
  messages: unknown[];
  model: string | null;
  temperature: number | null;
  max_tokens: number | null;
  timeout: number | null;
}

/** Scripted failures of the host's LLM: `empty` answers with empty content, the rest fail. */
export type LlmFailureKind = "timeout" | "connection" | "auth" | "quota" | "empty";
