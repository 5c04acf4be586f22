import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { ContextEngine, ENGINE_BRAND, isContextEngine } from "../../contract/context-engine.ts";
import { conversationScope } from "../../contract/conversation-scope.ts";
import { ENGINE_PROTOCOL_VERSION, ERROR_CODES, type CallResult, type EngineDescription, type InitializeParams, type ParamChange } from "../../engine-protocol/messages.ts";
import { isDerived, underive } from "../../engine-protocol/derived.ts";
import { MIRRORED_FIELDS } from "../../engine-protocol/remote-engine.ts";
import { isTypeScript } from "../../plugins/module-format.ts";
import { ensureTypeScriptLoader } from "../../plugins/typescript-loader.ts";

/**
 * The engine side of the engine protocol for a TypeScript/JavaScript engine: what the Hermes
 * bridge is for Python. ctxbench uses it to prove the protocol faithful (an engine certified
 * through it gets the outcomes it gets in-process). Hooks are called with the TypeScript
 * contract's arguments; identity, in-place mutation and answers are reported as the protocol says.
 */

type AnyEngine = ContextEngine & Record<string, unknown>;
type Send = (message: Record<string, unknown>) => void;

const OPTIONAL_HOOKS = [
  "select_context", "on_turn_complete", "should_compress_preflight", "should_compress_info", "has_content_to_compress",
  "prune_tool_results_only", "on_session_start", "on_session_end", "on_session_reset", "get_tool_schemas",
  "handle_tool_call", "get_status", "update_model", "clone_for_agent",
] as const;

/** Each hook: the TypeScript call for its named params, and which params it may mutate. */
const CALLS: Record<string, { call: (engine: AnyEngine, p: Record<string, unknown>, signal: AbortSignal) => unknown; tracked: string[] }> = {
  update_model: { call: (e, p) => e.update_model(p["options"] as never), tracked: [] },
  on_session_start: { call: (e, p) => e.on_session_start(p["session_id"] as string, p["info"] as never), tracked: ["info"] },
  update_from_response: { call: (e, p) => e.update_from_response(p["usage"] as never), tracked: ["usage"] },
  should_compress: { call: (e, p) => ("prompt_tokens" in p ? e.should_compress(p["prompt_tokens"] as number) : e.should_compress()), tracked: [] },
  should_compress_info: { call: (e) => e.should_compress_info(), tracked: [] },
  should_compress_preflight: { call: (e, p) => e.should_compress_preflight(p["messages"] as never), tracked: ["messages"] },
  compress: {
    call: (e, p, signal) => {
      const options: Record<string, unknown> = { signal };
      for (const key of ["force", "memory_context", "bypass_cooldown"]) if (key in p) options[key] = p[key];
      const args: unknown[] = [p["messages"]];
      if ("current_tokens" in p || "focus_topic" in p) args.push(p["current_tokens"]);
      if ("focus_topic" in p) args.push(p["focus_topic"]);
      while (args.length < 3) args.push(undefined);
      return (e.compress as (...a: unknown[]) => unknown)(...args, options);
    },
    tracked: ["messages"],
  },
  prune_tool_results_only: { call: (e, p) => e.prune_tool_results_only(p["messages"] as never, p["current_tokens"] as never), tracked: ["messages"] },
  has_content_to_compress: { call: (e, p) => e.has_content_to_compress(p["messages"] as never), tracked: ["messages"] },
  select_context: {
    call: (e, p) => {
      const options: Record<string, unknown> = {};
      for (const key of ["conversation_messages", "incoming_message", "budget_tokens"]) if (key in p) options[key] = p[key];
      return e.select_context(p["request_messages"] as never, options);
    },
    tracked: ["request_messages", "conversation_messages", "incoming_message"],
  },
  on_turn_complete: { call: (e, p) => e.on_turn_complete(p["messages"] as never, p["usage"] as never, p["info"] as never), tracked: ["messages", "usage"] },
  get_tool_schemas: { call: (e) => e.get_tool_schemas(), tracked: [] },
  handle_tool_call: { call: (e, p) => e.handle_tool_call(p["name"] as string, p["args"] as never, p["options"] as never), tracked: ["args", "options"] },
  on_session_end: { call: (e, p) => e.on_session_end(p["session_id"] as string, p["messages"] as never), tracked: ["messages"] },
  on_session_reset: { call: (e) => e.on_session_reset(), tracked: [] },
  get_status: { call: (e) => e.get_status(), tracked: [] },
  clone_for_agent: { call: (e) => e.clone_for_agent(), tracked: [] },
};

class AdapterError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

function jsType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "object") return (value as object).constructor?.name ?? "object";
  return typeof value;
}

function encode(value: unknown): { value?: unknown; json: boolean } {
  if (value === undefined) return { json: true };
  if (typeof value === "number" && !Number.isFinite(value)) return { value: { $native: "number", repr: String(value) }, json: false };
  if (typeof value === "function" || typeof value === "bigint" || typeof value === "symbol") return { value: { $native: typeof value, repr: String(value).slice(0, 200) }, json: false };
  try {
    return { value: JSON.parse(JSON.stringify(value)) as unknown, json: true };
  } catch (error) {
    return { value: { $native: jsType(value), repr: `unserialisable: ${(error as Error).message}` }, json: false };
  }
}

function snapshot(engine: AnyEngine): { attrs: Record<string, unknown>; attrTypes: Record<string, string> } {
  const attrs: Record<string, unknown> = {};
  const attrTypes: Record<string, string> = {};
  const take = (key: string) => {
    let value: unknown;
    try {
      value = engine[key];
    } catch {
      return;
    }
    if (value === undefined) return;
    if (value === null || ["string", "number", "boolean"].includes(typeof value)) {
      if (typeof value === "number" && !Number.isFinite(value)) {
        attrs[key] = { $native: "number", repr: String(value) };
        attrTypes[key] = "number";
      } else attrs[key] = value;
    }
  };
  for (const key of MIRRORED_FIELDS) take(key);
  for (const key of Object.keys(engine)) if (!(key in attrs) && !key.startsWith("_")) take(key);
  return { attrs, attrTypes };
}

function baseOf(engine: AnyEngine): typeof ContextEngine {
  const brand = (engine as unknown as Record<symbol, unknown>)[ENGINE_BRAND];
  return typeof brand === "function" ? (brand as typeof ContextEngine) : ContextEngine;
}

/** A prototype's class, or what it is when no class made it (a plain object used as a prototype inherits Object's constructor). */
function classOf(proto: object): string {
  if (!Object.hasOwn(proto, "constructor")) return PLAIN_OBJECT;
  return (proto as { constructor?: { name?: string } }).constructor?.name || "(anonymous class)";
}

/** Stands for a prototype no class made, in the class and MRO the handshake reports. */
export const PLAIN_OBJECT = "(plain object)";

function prototypeChain(engine: object): string[] {
  const names: string[] = [];
  for (let proto = Object.getPrototypeOf(engine) as object | null; proto; proto = Object.getPrototypeOf(proto) as object | null) names.push(classOf(proto));
  return names;
}

function qualnameOf(engine: object): string {
  const proto = Object.getPrototypeOf(engine) as object | null;
  return proto === null || proto === Object.prototype ? PLAIN_OBJECT : classOf(proto);
}

export class NodeEngineSide {
  readonly #send: Send;
  readonly #engines = new Map<number, AnyEngine>();
  readonly #handles = new Map<object, number>();
  readonly #aborts = new Map<unknown, AbortController>();
  #nextHandle = 1;
  #module: Record<string, unknown> | null = null;
  #plugin: InitializeParams["plugin"] | null = null;

  constructor(send: Send) {
    this.#send = send;
  }

  async receive(message: Record<string, unknown>): Promise<void> {
    const { id, method, params } = message as { id?: unknown; method?: string; params?: Record<string, unknown> };
    if (typeof method !== "string") return;
    const args = params ?? {};
    if (id === undefined || id === null) return this.#notification(method, args);
    try {
      const result = await this.#request(method, args, id);
      this.#send({ jsonrpc: "2.0", id, result: result ?? {} });
    } catch (error) {
      const failure = error instanceof AdapterError ? error : new AdapterError(ERROR_CODES.internal, `adapter error: ${String(error)}`);
      const body: Record<string, unknown> = { code: failure.code, message: failure.message };
      if (failure.data !== undefined) body["data"] = failure.data;
      this.#send({ jsonrpc: "2.0", id, error: body });
    } finally {
      this.#aborts.delete(id);
    }
  }

  #notification(method: string, params: Record<string, unknown>): void {
    if (method === "setattr") {
      const engine = this.#engines.get(params["handle"] as number);
      if (engine) engine[params["name"] as string] = params["value"];
    } else if (method === "release") {
      const engine = this.#engines.get(params["handle"] as number);
      this.#engines.delete(params["handle"] as number);
      if (engine) this.#handles.delete(engine);
    } else if (method === "cancel") {
      this.#aborts.get(params["id"])?.abort(new Error("host compaction timeout"));
    }
  }

  async #request(method: string, params: Record<string, unknown>, id: unknown): Promise<unknown> {
    switch (method) {
      case "initialize":
        return this.#initialize(params as unknown as InitializeParams);
      case "create":
        return this.#create();
      case "hook":
        return this.#hook(params, id);
      case "invoke":
        return this.#invoke(params);
      case "getattr": {
        const value = this.#engine(params)[params["name"] as string];
        return { ...encode(value), type: jsType(value), json: encode(value).json };
      }
      case "fire":
        return { results: [], errors: [] };
      case "shutdown":
        setImmediate(() => process.exit(0));
        return {};
      default:
        throw new AdapterError(ERROR_CODES.methodNotFound, `unknown method ${method}`);
    }
  }

  async #initialize(params: InitializeParams): Promise<unknown> {
    if (params.protocol !== ENGINE_PROTOCOL_VERSION) throw new AdapterError(ERROR_CODES.invalidParams, `protocol ${params.protocol} is not supported`);
    this.#plugin = params.plugin;
    if (!params.plugin.entry) throw new AdapterError(ERROR_CODES.loadFailed, "the Node adapter needs plugin.entry", { stage: "import" });
    try {
      // Compiled, the adapter has no tsx until a TypeScript engine needs it (as a compiled player).
      if (isTypeScript(params.plugin.entry)) await ensureTypeScriptLoader();
      this.#module = (await import(pathToFileURL(params.plugin.entry).href)) as Record<string, unknown>;
    } catch (error) {
      throw new AdapterError(ERROR_CODES.loadFailed, `${params.plugin.entry}: failed to import: ${String(error)}`, { stage: "import" });
    }
    return {
      protocol: ENGINE_PROTOCOL_VERSION,
      runtime: { language: "typescript", version: process.version.replace(/^v/, ""), implementation: "node", executable: process.execPath },
      module: params.plugin.entry,
      hostModules: [],
      optionalPackages: {},
      stubs: [],
      warnings: [],
    };
  }

  async #create(): Promise<EngineDescription> {
    const module = this.#module;
    const plugin = this.#plugin;
    if (!module || !plugin) throw new AdapterError(ERROR_CODES.notInitialized, "initialize first");
    let engine: unknown;
    try {
      engine = await this.#construct(module, plugin);
    } catch (error) {
      throw new AdapterError(ERROR_CODES.loadFailed, `${plugin.entry}: ${error instanceof Error ? error.message : String(error)}`, { stage: "construct" });
    }
    return this.#describe(engine as AnyEngine, plugin.exportName ? "module" : "register");
  }

  async #construct(module: Record<string, unknown>, plugin: InitializeParams["plugin"]): Promise<unknown> {
    if (plugin.exportName) {
      const value = module[plugin.exportName];
      if (typeof value !== "function") throw new Error(`no export ${plugin.exportName}`);
      const isClass = (value as { prototype?: Record<symbol, unknown> }).prototype?.[ENGINE_BRAND] !== undefined;
      return isClass ? new (value as new () => unknown)() : await (value as (selection: string) => unknown)(plugin.selection);
    }
    const { instanceFromModule } = await import("../../plugins/instantiate.ts");
    return (await instanceFromModule(module, plugin.entry ?? "")).engine;
  }

  #adopt(engine: AnyEngine): number {
    const known = this.#handles.get(engine);
    if (known !== undefined) return known;
    const handle = this.#nextHandle++;
    this.#engines.set(handle, engine);
    this.#handles.set(engine, handle);
    return handle;
  }

  #describe(engine: AnyEngine, via: string): EngineDescription {
    const handle = this.#adopt(engine);
    const base = baseOf(engine);
    let name: unknown = null;
    let nameError: string | null = null;
    try {
      name = engine.name;
    } catch (error) {
      nameError = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    }
    const overrides: Record<string, boolean> = {};
    for (const hook of OPTIONAL_HOOKS) {
      const member = engine[hook];
      overrides[hook] = typeof member === "function" && member !== (base.prototype as unknown as Record<string, unknown>)[hook];
    }
    const members: Record<string, string> = {};
    for (const member of ["update_from_response", "should_compress", "compress"]) members[member] = typeof engine[member];
    const branded = isContextEngine(engine);
    const { attrs, attrTypes } = snapshot(engine);
    let toolSchemas: unknown = null;
    let toolSchemasError: string | undefined;
    try {
      const schemas = engine.get_tool_schemas?.();
      toolSchemas = schemas === undefined || (schemas !== null && typeof (schemas as { then?: unknown }).then === "function") ? null : encode(schemas).value ?? null;
    } catch (error) {
      toolSchemasError = String(error);
    }
    const description: EngineDescription = {
      handle,
      via,
      name: typeof name === "string" ? name : null,
      nameError,
      nameType: nameError === null ? jsType(name) : null,
      class: { module: this.#plugin?.entry ?? "", qualname: qualnameOf(engine), mro: prototypeChain(engine), isSubclassOfABC: branded, isInstanceOfABC: branded, abstractMissing: [] },
      contract: { isContextEngine: branded, members, nameType: nameError === null ? typeof name : "error" },
      overrides,
      signatures: {},
      compressKeywords: ["current_tokens", "focus_topic", "force", "memory_context", "bypass_cooldown"],
      attrs,
      attrTypes,
      registrations: { via, commands: [], tools: [], ignoredHooks: [], warnings: [] },
      toolSchemas,
    };
    if (toolSchemasError !== undefined) description.toolSchemasError = toolSchemasError;
    return description;
  }

  #engine(params: Record<string, unknown>): AnyEngine {
    const engine = this.#engines.get(params["handle"] as number);
    if (!engine) throw new AdapterError(ERROR_CODES.unknownHandle, `no engine with handle ${String(params["handle"])}`);
    return engine;
  }

  async #hook(params: Record<string, unknown>, id: unknown): Promise<CallResult> {
    const engine = this.#engine(params);
    const spec = CALLS[params["hook"] as string];
    if (!spec) throw new AdapterError(ERROR_CODES.invalidParams, `unknown hook ${String(params["hook"])}`);
    const named = (params["params"] ?? {}) as Record<string, unknown>;
    if (isDerived(named["conversation_messages"]) && Array.isArray(named["request_messages"])) named["conversation_messages"] = underive(named["request_messages"], named["conversation_messages"]);
    const controller = new AbortController();
    this.#aborts.set(id, controller);
    const context = typeof params["context"] === "string" ? params["context"] : undefined;
    return this.#run(engine, named, spec.tracked, () => spec.call(engine, named, controller.signal), context);
  }

  async #invoke(params: Record<string, unknown>): Promise<CallResult> {
    const engine = this.#engine(params);
    const args = (params["args"] ?? []) as unknown[];
    const bound: Record<string, unknown> = {};
    args.forEach((value, index) => (bound[String(index)] = value));
    const method = params["method"] as string;
    return this.#run(engine, bound, Object.keys(bound), () => {
      const member = engine[method];
      return typeof member === "function" ? (member as (...a: unknown[]) => unknown).apply(engine, args) : member;
    });
  }

  async #run(engine: AnyEngine, named: Record<string, unknown>, tracked: string[], call: () => unknown, context?: string): Promise<CallResult> {
    const before = new Map<string, string>();
    for (const param of tracked) {
      const value = named[param];
      if (value !== null && typeof value === "object") before.set(param, JSON.stringify(value));
    }
    const mutations = (): ParamChange[] => {
      const changed: ParamChange[] = [];
      for (const [param, text] of before) {
        const now = JSON.stringify(named[param]);
        if (now !== text) changed.push({ param, value: JSON.parse(now) as unknown, paths: ["$"] });
      }
      return changed;
    };
    let value: unknown;
    try {
      const invoke = () => call();
      const returned = context !== undefined ? conversationScope.run(context, invoke) : conversationScope.exit(invoke);
      value = returned !== null && typeof returned === "object" && typeof (returned as { then?: unknown }).then === "function" ? await returned : returned;
    } catch (error) {
      const data: Record<string, unknown> = {
        type: error instanceof Error ? error.name : "thrown",
        message: error instanceof Error ? error.message : String(error),
        traceback: error instanceof Error ? (error.stack ?? "") : "",
        ...snapshot(engine),
      };
      const changed = mutations();
      if (changed.length > 0) data["mutated"] = changed;
      throw new AdapterError(ERROR_CODES.engineRaised, `${String(data["type"])}: ${String(data["message"])}`, data);
    }
    const result: CallResult = { type: jsType(value), json: true, ...snapshot(engine) };
    if (value === engine) result.sameAs = "self";
    else if (value !== null && typeof value === "object" && isContextEngine(value)) result.engine = this.#describe(value as AnyEngine, "clone");
    else {
      const same = tracked.find((param) => named[param] !== null && typeof named[param] === "object" && named[param] === value);
      if (same !== undefined) result.sameAs = same;
      else Object.assign(result, encode(value));
    }
    const changed = mutations();
    if (changed.length > 0) result.mutated = changed;
    return result;
  }
}

/** Serve the protocol on this process's stdin/stdout; the engine's own prints go to stderr. */
export function serveStdio(): void {
  const protocolOut = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: unknown, ...rest: unknown[]) => (process.stderr.write as (...a: unknown[]) => boolean)(chunk, ...rest)) as typeof process.stdout.write;
  console.log = (...args: unknown[]) => console.error(...args);
  console.info = console.log;
  const side = new NodeEngineSide((message) => protocolOut(`${JSON.stringify(message)}\n`));
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on("line", (line) => {
    if (line.trim() === "") return;
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(line) as Record<string, unknown>;
    } catch {
      protocolOut(`${JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: ERROR_CODES.parse, message: "not JSON" } })}\n`);
      return;
    }
    void side.receive(message);
  });
  lines.on("close", () => process.exit(0));
}
