/**
 * Facts about an engine that runs in another language behind the engine protocol
 * (docs/engine-protocol.md), which its TypeScript face cannot show: the native class, which hooks
 * the engine itself overrides, its signatures, and per call the answer's native type, whether the
 * answer was the very input object, and which arguments it changed in place.
 *
 * Probes and checks read them through `nativeFacts(engine)` and `nativeCallFacts(returned)`; both
 * are null for an engine running in-process.
 */

/** Where a remote engine keeps its facts (a `Symbol.for` key, so copies of the package agree). */
export const NATIVE_FACTS: unique symbol = Symbol.for("ctxbench.nativeFacts") as never;
/** Where a remote engine's answer (the promise a hook returned) keeps that call's facts. */
export const NATIVE_CALL: unique symbol = Symbol.for("ctxbench.nativeCall") as never;
/** How an engine that holds a process (or another resource) is let go of; in-process engines have none. */
export const DISPOSE: unique symbol = Symbol.for("ctxbench.dispose") as never;

/** Let go of an engine: ends the process of a remote engine's family; nothing for an in-process engine. */
export async function disposeEngine(engine: unknown): Promise<void> {
  if (engine === null || typeof engine !== "object") return;
  const dispose = (engine as { [DISPOSE]?: () => Promise<void> | void })[DISPOSE];
  if (typeof dispose === "function") await dispose.call(engine);
}

/** A value the engine returned that JSON (and so TypeScript) has no equivalent for. */
export class NativeValue {
  constructor(
    /** The native type, e.g. `coroutine`, `tuple`, `numpy.bool_`. */
    readonly native: string,
    /** Its text (repr), or for a tuple its items. */
    readonly repr: string,
    readonly items?: readonly unknown[],
  ) {}
}

export interface NativeParamChange {
  /** The contract's name of the argument: `messages`, `conversation_messages`, `usage`, … */
  param: string;
  /** Where it changed, as `$`-rooted paths (`$[3].content`, `$.length`), at most 20. */
  paths: string[];
}

/** What one call over the protocol showed beyond its value. */
export interface NativeCallFacts {
  language: string;
  /** The answer's native type (`bool`, `int`, `list`, `tuple`, `coroutine`, `NoneType`, …). */
  type: string;
  /** False when the answer could not be carried as JSON (it arrives as a NativeValue). */
  json: boolean;
  /** The answer was an awaitable the host did not await (an `async def` hook on a synchronous host). */
  awaitable?: boolean;
  /** The answer was this very argument (`result is messages`), or `self` for the engine itself. */
  sameAs?: string;
  /** Arguments the engine changed in place; the TypeScript arguments were changed the same way. */
  mutated?: NativeParamChange[];
  /** Native types of attributes JSON cannot tell apart (`6000.0` is a `float`, not an `int`). */
  attrTypes: Record<string, string>;
  /** For a call that raised: the native exception type and traceback. */
  raised?: { type: string; traceback: string };
}

/** A parameter of a native signature. */
export interface NativeParam {
  name: string;
  /** `positional_only`, `positional_or_keyword`, `var_positional`, `keyword_only`, `var_keyword`. */
  kind: string;
  hasDefault: boolean;
}

export type NativeSignature = { params: NativeParam[]; varKeyword: boolean; varPositional: boolean } | { error: string };

export interface HostModuleRecord {
  module: string;
  /** `shim` (ctxbench's stand-in), `checkout` (a --hermes-agent tree), `installed`, `missing`, `missing-member`, `namespace`. */
  outcome: string;
}

/** The facts of one engine instance behind the protocol. */
export interface NativeEngineFacts {
  language: string;
  /** The runtime that runs it, e.g. `{language: "python", version: "3.11.7", …}`. */
  runtime: Record<string, unknown>;
  /** The engine's class: module, qualname, MRO, whether it subclasses the contract's ABC. */
  class: { module: string; qualname: string; mro: string[]; isSubclassOfABC: boolean; isInstanceOfABC: boolean; abstractMissing: string[] };
  /** ABC-1's facts in the terms its check uses for a TypeScript engine. */
  contract: { isContextEngine: boolean; members: Record<string, string>; nameType: string };
  /** Optional hooks the engine overrides, decided the way its language decides it. */
  overrides: Record<string, boolean>;
  signatures: Record<string, NativeSignature>;
  /** The compress keywords the host passes it after filtering by signature. */
  compressKeywords: string[];
  /** How the plugin produced it: `register` (register(ctx)), `subclass` (first subclass), `clone`. */
  via: string | null;
  registrations: Record<string, unknown>;
  toolSchemas: unknown;
  /** Host internals the engine tried to import so far (grows as the engine runs). */
  hostModules(): HostModuleRecord[];
  /** Host hooks registered with the plugin manager so far (`post_llm_call` → count). */
  hostHooks(): Record<string, number>;
  optionalPackages: Record<string, boolean>;
  /** Modules stubbed for this engine (only LLM and network seams). */
  stubs: Array<{ module: string; why: string }>;
  warnings: string[];
  /** The sandbox the engine runs in (HERMES_HOME for a Python engine). */
  home: string;
  /** The latest snapshot of every public scalar attribute, and types JSON hides. */
  attrs(): Record<string, unknown>;
  attrTypes(): Record<string, string>;
  /** Call any method of the engine by name (the protocol's `invoke`). */
  invoke(method: string, args?: unknown[], kwargs?: Record<string, unknown>): Promise<unknown>;
  /** Read any attribute (the protocol's `getattr`). */
  getAttr(name: string): Promise<unknown>;
}

/** The facts of an engine behind the protocol, or null for one running in-process. */
export function nativeFacts(engine: unknown): NativeEngineFacts | null {
  if (engine === null || typeof engine !== "object") return null;
  const facts = (engine as { [NATIVE_FACTS]?: NativeEngineFacts })[NATIVE_FACTS];
  return facts ?? null;
}

/** The facts of one call, given what the hook returned (the promise), once it has settled. */
export function nativeCallFacts(returned: unknown): NativeCallFacts | null {
  if (returned === null || typeof returned !== "object") return null;
  const holder = (returned as { [NATIVE_CALL]?: { facts: NativeCallFacts | null } })[NATIVE_CALL];
  return holder?.facts ?? null;
}
