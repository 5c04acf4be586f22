import { ContextEngine } from "../contract/context-engine.ts";
import { DISPOSE, NATIVE_CALL, NATIVE_FACTS, NativeValue, type NativeCallFacts, type NativeEngineFacts } from "../contract/native.ts";
import type {
  CompressInfo,
  CompressOptions,
  EngineStatus,
  Message,
  SelectContextOptions,
  SessionStartInfo,
  ToolCallOptions,
  ToolSchema,
  TurnCompleteInfo,
  UpdateModelOptions,
  Usage,
} from "../contract/types.ts";
import type { EngineFamily } from "./family.ts";
import { RpcError } from "./json-rpc.ts";
import { ERROR_CODES, type CallResult, type EngineDescription, type RaisedData } from "./messages.ts";
import { ambientOf, remoteOnTurnComplete, remoteSelectContext } from "./host-hooks.ts";
import { syncInPlace } from "./sync.ts";

/** Budget and configuration fields mirrored from the engine side after every call; writes go back. */
export const MIRRORED_FIELDS = [
  "last_prompt_tokens",
  "last_completion_tokens",
  "last_total_tokens",
  "threshold_tokens",
  "context_length",
  "compression_count",
  "threshold_percent",
  "protect_first_n",
  "protect_last_n",
] as const;
type MirroredField = (typeof MIRRORED_FIELDS)[number];

/** Hooks whose answer the host expects to be a list: a native tuple is not one. */
const LIST_HOOKS = new Set(["compress", "select_context", "get_tool_schemas"]);

/** An exception the remote engine raised, with its native type as the error's name. */
export class RemoteEngineError extends Error {
  constructor(
    name: string,
    message: string,
    readonly traceback: string,
  ) {
    super(message);
    this.name = name;
  }
}

/** Where each hook's named parameter lives among the TypeScript arguments (for in-place sync). */
type Bindings = Record<string, unknown>;

interface CallHolder {
  facts: NativeCallFacts | null;
}

/**
 * A ContextEngine whose every hook is answered by an engine behind the engine protocol. The host
 * drives it like any other: its budget fields mirror the remote engine's after every call (and a
 * host write such as `last_prompt_tokens = -1` is sent across before the next call), arguments the remote engine
 * changed in place are changed the same way here, an answer that was the very input object is that
 * object, and a remote engine that does not override `select_context` or `on_turn_complete` gets a
 * class where those are the base class's own defaults — the host's identity check skips them, with
 * no round trip. Native facts: `nativeFacts(engine)`, and `nativeCallFacts(promise)` per call.
 */
export class RemoteEngine extends ContextEngine {
  readonly #family: EngineFamily;
  readonly #description: EngineDescription;
  /** The mirrored fields' values as last exchanged with the engine side; a field that differs was written by the host. */
  readonly #synced: Record<string, unknown> = {};
  #attrs: Record<string, unknown>;
  #attrTypes: Record<string, string>;
  #released = false;

  /** Use `remoteEngine(family, description)`: it picks the class that matches the overrides. */
  constructor(family: EngineFamily, description: EngineDescription) {
    super();
    this.#family = family;
    this.#description = description;
    this.#attrs = { ...description.attrs };
    this.#attrTypes = { ...description.attrTypes };
    // Plain data properties (the host reads them on every request); writes are sent before the next call.
    this.#refresh(description.attrs, description.attrTypes);
    Object.defineProperty(this, NATIVE_FACTS, { value: this.#facts(), enumerable: false });
    // Letting go of an instance releases it; the factory that started a family replaces this to end the family.
    Object.defineProperty(this, DISPOSE, { value: () => this.release(), enumerable: false, configurable: true, writable: true });
  }

  get name(): string {
    if (this.#description.nameError !== null) throw new RemoteEngineError("NameError", this.#description.nameError, "");
    return this.#description.name as string;
  }

  get handle(): number {
    return this.#description.handle;
  }

  get family(): EngineFamily {
    return this.#family;
  }

  get description(): EngineDescription {
    return this.#description;
  }

  update_from_response(usage: Usage): void {
    return this.hook("update_from_response", { usage }, { usage }) as unknown as void;
  }

  should_compress(prompt_tokens?: number): boolean {
    return this.hook("should_compress", prompt_tokens === undefined ? {} : { prompt_tokens }, {}) as unknown as boolean;
  }

  compress(messages: Message[], current_tokens?: number | null, focus_topic?: string | null, options?: CompressOptions): Promise<Message[]> {
    const params: Record<string, unknown> = { messages };
    if (current_tokens !== undefined) params["current_tokens"] = current_tokens;
    if (focus_topic !== undefined) params["focus_topic"] = focus_topic;
    if (options?.force !== undefined) params["force"] = options.force;
    if (options?.memory_context !== undefined) params["memory_context"] = options.memory_context;
    if (options?.bypass_cooldown !== undefined) params["bypass_cooldown"] = options.bypass_cooldown;
    return this.hook("compress", params, { messages }, options?.signal) as Promise<Message[]>;
  }

  override on_session_start(session_id: string, info?: SessionStartInfo): Promise<void> {
    return this.hook("on_session_start", info === undefined ? { session_id } : { session_id, info }, { info }) as Promise<void>;
  }

  override on_session_end(session_id: string, messages: Message[]): Promise<void> {
    return this.hook("on_session_end", { session_id, messages }, { messages }) as Promise<void>;
  }

  override on_session_reset(): void {
    return this.hook("on_session_reset", {}, {}) as unknown as void;
  }

  override get_tool_schemas(): ToolSchema[] {
    return this.hook("get_tool_schemas", {}, {}) as unknown as ToolSchema[];
  }

  override handle_tool_call(name: string, args: Record<string, unknown>, options?: ToolCallOptions): Promise<string> {
    const params: Record<string, unknown> = { name, args };
    if (options !== undefined) params["options"] = options;
    return this.hook("handle_tool_call", params, { args, options }) as Promise<string>;
  }

  override get_status(): EngineStatus {
    return this.hook("get_status", {}, {}) as unknown as EngineStatus;
  }

  override update_model(options: UpdateModelOptions): void {
    return this.hook("update_model", { options }, {}) as unknown as void;
  }

  override should_compress_preflight(messages: Message[]): boolean {
    return this.hook("should_compress_preflight", { messages }, { messages }) as unknown as boolean;
  }

  override should_compress_info(): CompressInfo {
    return this.hook("should_compress_info", {}, {}) as unknown as CompressInfo;
  }

  override prune_tool_results_only(messages: Message[], current_tokens?: number): [Message[], number] {
    const params: Record<string, unknown> = { messages };
    if (current_tokens !== undefined) params["current_tokens"] = current_tokens;
    return this.hook("prune_tool_results_only", params, { messages }) as unknown as [Message[], number];
  }

  override has_content_to_compress(messages: Message[]): boolean {
    return this.hook("has_content_to_compress", { messages }, { messages }) as unknown as boolean;
  }

  override clone_for_agent(): ContextEngine {
    return this.hook("clone_for_agent", {}, {}) as unknown as ContextEngine;
  }

  /** Drop this instance on the engine side (the process stays for its siblings). */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.#family.notify("release", { handle: this.handle });
  }

  /** One contract hook over the protocol. The returned promise carries the call's native facts. */
  hook(hook: string, params: Record<string, unknown>, bindings: Bindings, signal?: AbortSignal): Promise<unknown> {
    const holder: CallHolder = { facts: null };
    const context = ambientOf(this.#family);
    const message: Record<string, unknown> = { handle: this.handle, hook, params };
    if (context !== undefined) message["context"] = context;
    this.#sendWrites();
    const settled = (signal === undefined ? this.#family.request("hook", message, undefined, hook) : this.#cancellable(message, hook, signal)).then(
      (result) => this.#settle(hook, result as CallResult, bindings, holder),
      (error: unknown) => {
        throw this.#raised(hook, error, bindings, holder);
      },
    );
    Object.defineProperty(settled, NATIVE_CALL, { value: holder, enumerable: false });
    return settled;
  }

  /** A hook request the caller can abort: the engine side is told to give up on it (`cancel`). */
  #cancellable(message: Record<string, unknown>, hook: string, signal: AbortSignal): Promise<unknown> {
    let requestId: number | null = null;
    const onAbort = () => {
      if (requestId !== null) this.#family.notify("cancel", { id: requestId });
    };
    const answer = this.#family
      .request("hook", message, undefined, hook, (id) => {
        requestId = id;
        if (signal.aborted) onAbort();
      })
      .finally(() => signal.removeEventListener("abort", onAbort));
    signal.addEventListener("abort", onAbort, { once: true });
    return answer;
  }

  /** Any method by name (the protocol's `invoke`), for hooks outside the contract. */
  invoke(method: string, args: unknown[] = [], kwargs: Record<string, unknown> = {}): Promise<unknown> {
    const holder: CallHolder = { facts: null };
    const bindings: Bindings = {};
    args.forEach((value, index) => (bindings[String(index)] = value));
    for (const [key, value] of Object.entries(kwargs)) bindings[`kw:${key}`] = value;
    this.#sendWrites();
    const answer = this.#family.request("invoke", { handle: this.handle, method, args, kwargs }, undefined, method).then(
      (result) => this.#settle(method, result as CallResult, bindings, holder),
      (error: unknown) => {
        throw this.#raised(method, error, bindings, holder);
      },
    );
    Object.defineProperty(answer, NATIVE_CALL, { value: holder, enumerable: false });
    return answer;
  }

  #settle(hook: string, result: CallResult, bindings: Bindings, holder: CallHolder): unknown {
    this.#refresh(result.attrs, result.attrTypes);
    const facts: NativeCallFacts = { language: this.#family.environment.runtime.language, type: result.type, json: result.json, attrTypes: { ...result.attrTypes } };
    if (result.awaitable) facts.awaitable = true;
    if (result.sameAs !== undefined) facts.sameAs = result.sameAs;
    if (result.mutated && result.mutated.length > 0) {
      facts.mutated = result.mutated.map(({ param, paths }) => ({ param, paths }));
      for (const change of result.mutated) syncInPlace(bindings[change.param], change.value);
    }
    holder.facts = facts;
    if (result.sameAs === "self") return this;
    if (result.sameAs !== undefined) return bindings[result.sameAs];
    if (result.engine !== undefined) return remoteEngine(this.#family, result.engine);
    return decodeValue(hook, result);
  }

  #raised(hook: string, error: unknown, bindings: Bindings, holder: CallHolder): Error {
    if (!(error instanceof RpcError) || error.code !== ERROR_CODES.engineRaised) {
      holder.facts = { language: this.#family.environment.runtime.language, type: "error", json: false, attrTypes: {} };
      return error instanceof Error ? error : new Error(String(error));
    }
    const data = error.data as RaisedData;
    this.#refresh(data.attrs, data.attrTypes);
    for (const change of data.mutated ?? []) syncInPlace(bindings[change.param], change.value);
    holder.facts = {
      language: this.#family.environment.runtime.language,
      type: "raised",
      json: true,
      attrTypes: { ...data.attrTypes },
      raised: { type: data.type, traceback: data.traceback },
      ...(data.mutated && data.mutated.length > 0 ? { mutated: data.mutated.map(({ param, paths }) => ({ param, paths })) } : {}),
    };
    return new RemoteEngineError(data.type, data.message, data.traceback);
  }

  /** Send the host's writes to mirrored fields now (before a request that is not a hook call). */
  syncWrites(): void {
    this.#sendWrites();
  }

  /** Take the engine side's latest attribute snapshot (a call answer carries one; so does a fired host hook). */
  refreshAttributes(attrs: Record<string, unknown> | undefined, types: Record<string, string> | undefined): void {
    this.#refresh(attrs, types);
  }

  #refresh(attrs: Record<string, unknown> | undefined, types: Record<string, string> | undefined): void {
    if (attrs) {
      this.#attrs = attrs;
      const fields = this as unknown as Record<MirroredField, unknown>;
      for (const field of MIRRORED_FIELDS) {
        fields[field] = attrs[field];
        this.#synced[field] = attrs[field];
      }
    }
    if (types) this.#attrTypes = types;
  }

  /** The host's writes to mirrored fields since the last exchange (`last_prompt_tokens = -1` after a commit), sent before the next call. */
  #sendWrites(): void {
    const fields = this as unknown as Record<MirroredField, unknown>;
    for (const field of MIRRORED_FIELDS) {
      const value = fields[field];
      if (Object.is(value, this.#synced[field])) continue;
      this.#synced[field] = value;
      this.#attrs = { ...this.#attrs, [field]: value };
      this.#family.notify("setattr", { handle: this.handle, name: field, value });
    }
  }

  #facts(): NativeEngineFacts {
    const family = this.#family;
    const description = this.#description;
    return {
      language: family.environment.runtime.language,
      runtime: { ...family.environment.runtime },
      class: description.class,
      contract: description.contract,
      overrides: { ...description.overrides },
      signatures: description.signatures,
      compressKeywords: [...description.compressKeywords],
      via: description.via,
      registrations: description.registrations,
      toolSchemas: description.toolSchemas,
      hostModules: () => family.hostModules,
      hostHooks: () => family.hostHooks,
      optionalPackages: { ...family.environment.optionalPackages },
      stubs: [...family.environment.stubs],
      warnings: [...family.environment.warnings],
      home: family.options.initialize.home,
      attrs: () => ({ ...this.#attrs }),
      attrTypes: () => ({ ...this.#attrTypes }),
      invoke: (method, args, kwargs) => this.invoke(method, args, kwargs),
      getAttr: async (name) => {
        this.#sendWrites();
        return decodeValue("getattr", (await family.request("getattr", { handle: this.handle, name })) as CallResult);
      },
    };
  }
}

function decodeValue(hook: string, result: CallResult): unknown {
  const value = result.value;
  if (!result.json) {
    const marker = value as { $native?: unknown; repr?: unknown } | null;
    if (marker !== null && typeof marker === "object" && typeof marker.$native === "string") return new NativeValue(marker.$native, String(marker.repr ?? ""));
    return new NativeValue(result.type, JSON.stringify(value) ?? "");
  }
  if (result.type === "tuple" && LIST_HOOKS.has(hook) && Array.isArray(value)) return new NativeValue("tuple", `tuple of ${value.length}`, value);
  return value;
}

class RemoteSelectingEngine extends RemoteEngine {}
class RemoteObservingEngine extends RemoteEngine {}
class RemoteSelectingObservingEngine extends RemoteEngine {}
for (const cls of [RemoteSelectingEngine, RemoteSelectingObservingEngine]) {
  Object.defineProperty(cls.prototype, "select_context", { value: remoteSelectContext, writable: true, configurable: true });
}
for (const cls of [RemoteObservingEngine, RemoteSelectingObservingEngine]) {
  Object.defineProperty(cls.prototype, "on_turn_complete", { value: remoteOnTurnComplete, writable: true, configurable: true });
}

function classFor(selects: boolean, observes: boolean): typeof RemoteEngine {
  if (selects) return observes ? RemoteSelectingObservingEngine : RemoteSelectingEngine;
  return observes ? RemoteObservingEngine : RemoteEngine;
}

function observes(family: EngineFamily, description: EngineDescription): boolean {
  return description.overrides["on_turn_complete"] === true || (family.hostHooks["post_llm_call"] ?? 0) > 0;
}

function selects(family: EngineFamily, description: EngineDescription): boolean {
  return description.overrides["select_context"] === true || (family.hostHooks["pre_llm_call"] ?? 0) > 0;
}

/**
 * The RemoteEngine for one engine-side instance. Its class overrides `select_context` only when the
 * remote engine does or registered a pre_llm_call host hook, and `on_turn_complete` only when the
 * remote engine does or registered a post_llm_call host hook; it switches class if the plugin
 * registers such a hook later.
 */
export function remoteEngine(family: EngineFamily, description: EngineDescription): RemoteEngine {
  const Class = classFor(selects(family, description), observes(family, description));
  const engine = new Class(family, description);
  family.onHostHooksChanged(() => Object.setPrototypeOf(engine, classFor(selects(family, description), observes(family, description)).prototype));
  return engine;
}
