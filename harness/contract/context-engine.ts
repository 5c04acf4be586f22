import type {
  CompressInfo,
  CompressOptions,
  EngineStatus,
  MaybePromise,
  Message,
  SelectContextOptions,
  SessionStartInfo,
  ToolCallOptions,
  ToolSchema,
  TurnCompleteInfo,
  UpdateModelOptions,
  Usage,
} from "./types.ts";

/**
 * The brand every engine carries, keyed with `Symbol.for` so that two copies of this package
 * recognise each other's engines. Its value is the base class the engine extends, so the host's
 * identity check (SEL-1) compares against the defaults of that very class.
 */
export const ENGINE_BRAND: unique symbol = Symbol.for("ctxbench.ContextEngine") as never;

export interface ContextEngineInit {
  context_length?: number;
  threshold_percent?: number;
}

/**
 * The plugin contract. Member names follow the specification (snake_case); optional hooks have
 * no-op defaults that the host recognises by identity and never calls.
 */
export abstract class ContextEngine {
  /** Short identifier; must equal the value that selects the engine (REG-5). */
  abstract readonly name: string;

  last_prompt_tokens = 0;
  last_completion_tokens = 0;
  last_total_tokens = 0;
  threshold_tokens = 0;
  context_length = 0;
  compression_count = 0;
  threshold_percent = 0.75;
  protect_first_n = 3;
  protect_last_n = 6;

  declare readonly [ENGINE_BRAND]: typeof ContextEngine;

  constructor(init: ContextEngineInit = {}) {
    if (init.threshold_percent !== undefined) this.threshold_percent = init.threshold_percent;
    if (init.context_length !== undefined) {
      this.context_length = init.context_length;
      this.threshold_tokens = Math.floor(init.context_length * this.threshold_percent);
    }
  }

  /** Called after every provider response with its usage. */
  abstract update_from_response(usage: Usage): void;

  /** True when compaction should fire this turn. */
  abstract should_compress(prompt_tokens?: number): boolean;

  /** Compact the list and return a new, valid OpenAI-format list. */
  abstract compress(
    messages: Message[],
    current_tokens?: number | null,
    focus_topic?: string | null,
    options?: CompressOptions,
  ): MaybePromise<Message[]>;

  /** Replace the context for one request, or return null to leave it unchanged. */
  select_context(_request_messages: Message[], _options?: SelectContextOptions): MaybePromise<Message[] | null | undefined> {
    return null;
  }

  /** Observe a finished turn; the return value is ignored. */
  on_turn_complete(_messages: Message[], _usage: Usage | null, _info?: TurnCompleteInfo): MaybePromise<void> {}

  on_session_start(_session_id: string, _info?: SessionStartInfo): MaybePromise<void> {}

  on_session_end(_session_id: string, _messages: Message[]): MaybePromise<void> {}

  on_session_reset(): void {
    this.last_prompt_tokens = 0;
    this.last_completion_tokens = 0;
    this.last_total_tokens = 0;
    this.compression_count = 0;
  }

  get_tool_schemas(): ToolSchema[] {
    return [];
  }

  handle_tool_call(name: string, _args: Record<string, unknown>, _options?: ToolCallOptions): MaybePromise<string> {
    return JSON.stringify({ error: `Unknown context engine tool: ${name}` });
  }

  get_status(): EngineStatus {
    const last = Math.max(0, this.last_prompt_tokens);
    return {
      name: this.name,
      last_prompt_tokens: last,
      threshold_tokens: this.threshold_tokens,
      context_length: this.context_length,
      usage_percent: this.context_length > 0 ? Math.min(100, (last / this.context_length) * 100) : 0,
      compression_count: this.compression_count,
    };
  }

  update_model(options: UpdateModelOptions): void {
    this.context_length = options.context_length;
    this.threshold_tokens = Math.floor(options.context_length * this.threshold_percent);
  }

  /** Engine-driven maintenance: true asks the host for exactly one pass below the threshold. */
  should_compress_preflight(_messages: Message[]): boolean {
    return false;
  }

  /** Why automatic compaction is blocked, if it is. */
  should_compress_info(): CompressInfo {
    return { blocked: false, reason: null };
  }

  /** Prune tool results without a full pass; returns the new list and how many results were pruned. */
  prune_tool_results_only(messages: Message[], _current_tokens?: number): [Message[], number] {
    return [messages, 0];
  }

  has_content_to_compress(_messages: Message[]): boolean {
    return true;
  }

  /**
   * A separate engine for another agent: same configuration, independent budget state.
   * The default copies the engine's own fields; engines holding connections override it.
   */
  clone_for_agent(): ContextEngine {
    const clone = freshInstance(this) as unknown as Record<string, unknown>;
    for (const [key, value] of Object.entries(this)) clone[key] = copyField(value);
    return clone as unknown as ContextEngine;
  }
}

Object.defineProperty(ContextEngine.prototype, ENGINE_BRAND, { value: ContextEngine, enumerable: false });

/**
 * A new object of the engine's class. Constructing it (with no arguments, as discovery does) gives
 * the clone its own #private fields; a constructor that needs arguments falls back to a bare
 * object of the same prototype.
 */
function freshInstance(engine: ContextEngine): object {
  const EngineClass = engine.constructor as new () => ContextEngine;
  try {
    return new EngineClass();
  } catch {
    return Object.create(Object.getPrototypeOf(engine) as object) as object;
  }
}

function copyField(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  try {
    return structuredClone(value);
  } catch {
    return value;
  }
}

/** The optional hooks whose inherited default the host skips. */
export type OptionalHook = "select_context" | "on_turn_complete";

/** True for any engine built on a ContextEngine base class, whichever copy of the package it came from. */
export function isContextEngine(value: unknown): value is ContextEngine {
  if (value === null || typeof value !== "object") return false;
  const base = (value as { [ENGINE_BRAND]?: unknown })[ENGINE_BRAND];
  return typeof base === "function" && typeof (value as { compress?: unknown }).compress === "function";
}

/**
 * SEL-1: does the engine override the hook? False when it inherits the very function of the base
 * class it extends. A function set on the instance counts as an override, as upstream.
 */
export function overridesHook(engine: ContextEngine, hook: OptionalHook): boolean {
  const own = engine[hook];
  if (typeof own !== "function") return false;
  return own !== engine[ENGINE_BRAND].prototype[hook];
}
