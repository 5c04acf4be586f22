import { spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import type { HostModuleRecord } from "../contract/native.ts";
import { UsageError } from "../util/errors.ts";
import { JsonRpcPeer, RpcError, type PeerHandlers } from "./json-rpc.ts";
import { MESSAGE_REFS_FEATURE, MessageRefEncoder } from "./message-refs.ts";
import { Watchdog } from "./watchdog.ts";
import { ENGINE_PROTOCOL_VERSION, ERROR_CODES, type EngineDescription, type InitializeParams, type InitializeResult, type LlmCallParams } from "./messages.ts";

/** The engine could not be loaded (import, register, constructor, its process, a load bound): exit 2, one line. */
export class EngineLoadError extends UsageError {
  constructor(
    message: string,
    readonly stage: string,
  ) {
    super(message);
  }
}

/** What the host's LLM answers the engine: content, or a failure of one of the scripted kinds. */
export type LlmAnswer = { content: string | null } | { error: { kind: string; message: string } };
export type LlmHandler = (params: LlmCallParams) => Promise<LlmAnswer> | LlmAnswer;

export interface FamilyOptions {
  /** The engine side's process: the Hermes bridge (`python3 -I -B …`) or the Node adapter. */
  command: string;
  args: readonly string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  initialize: Omit<InitializeParams, "protocol">;
  /** Answers `llm.call` (default: every call fails as a connection error). */
  llm?: LlmHandler;
  /** Bound on starting the process and loading the plugin, and again on making an instance (default 8 s each). */
  loadTimeoutMs?: number;
  /** A call that takes longer ends the process, and every call in flight with it (default 60 s). */
  callTimeoutMs?: number;
  /** The caller's ambient async context (default: the conversation scope): calls made in one context run on one engine-side thread. */
  ambientContext?: () => string | undefined;
  /** The engine's own output (stderr), as it arrives. */
  onStderr?: (text: string) => void;
  /** Every protocol message, for tests that validate the traffic. */
  onMessage?: PeerHandlers["onMessage"];
}

export const DEFAULT_LOAD_TIMEOUT_MS = 8_000;
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;
const STDERR_TAIL_BYTES = 8 * 1024;
const SHUTDOWN_GRACE_MS = 2_000;

/** What the host needs of an engine-side process: a spawned child, or one a fork server made (fork-server.ts). */
export interface EngineChild {
  kill(signal: NodeJS.Signals): unknown;
  once(event: "exit", listener: (code: number | null, signal: NodeJS.Signals | null) => void): unknown;
  once(event: "error", listener: (error: Error) => void): unknown;
}

/** An engine-side process's streams: the channel in and out, and its own output. */
export interface EngineStreams {
  input: Writable;
  output: Readable;
  stderr: Readable;
}

const live = new Set<EngineChild>();
let exitHookInstalled = false;

/** Never leave an engine process behind this one (a hung thread cannot keep it alive either). */
export function killOnExit(child: EngineChild): void {
  live.add(child);
  child.once("exit", () => live.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const running of live) running.kill("SIGKILL");
  });
}

/**
 * One engine-side process and every engine instance it holds (an instance, its clones, and
 * further instances of the same plugin share the process, its modules and its sandbox). Calls are
 * JSON-RPC requests on its stdin/stdout; stderr is the engine's own output.
 */
export class EngineFamily {
  readonly environment: InitializeResult;
  readonly options: FamilyOptions;
  /** select_context's request by reference, when the engine side speaks `message-refs`; else null. */
  readonly messageRefs: MessageRefEncoder | null;
  readonly #child: EngineChild;
  readonly #peer: JsonRpcPeer;
  readonly #hostModules: HostModuleRecord[];
  #hostHooks: Record<string, number> = {};
  #stderrTail = "";
  #exit: { code: number | null; signal: string | null } | null = null;
  readonly #onHooks = new Set<() => void>();
  readonly #watchdog: Watchdog;

  private constructor(child: EngineChild, peer: JsonRpcPeer, options: FamilyOptions, environment: InitializeResult, state: FamilyState) {
    this.#child = child;
    this.#peer = peer;
    this.options = options;
    this.environment = environment;
    this.messageRefs = environment.features?.includes(MESSAGE_REFS_FEATURE) ? new MessageRefEncoder() : null;
    this.#hostModules = state.hostModules;
    this.#watchdog = new Watchdog((id) => peer.isPending(id), (reason) => this.kill(reason));
    state.family = this;
  }

  /** Start the process and load the plugin; an EngineLoadError says why it could not. */
  static start(options: FamilyOptions): Promise<EngineFamily> {
    return EngineFamily.adopt(EngineProcess.spawn(options), options);
  }

  /**
   * Load the plugin into a process started earlier (a spare, with the same command and handlers):
   * `initialize` carries the plugin and the sandbox, so a process can be started before either is known.
   */
  static async adopt(started: EngineProcess, options: FamilyOptions): Promise<EngineFamily> {
    const { child, peer, state } = started;
    const bound = options.loadTimeoutMs ?? DEFAULT_LOAD_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), bound);
    });
    try {
      const initialize = peer.request("initialize", { protocol: ENGINE_PROTOCOL_VERSION, ...options.initialize } as unknown as Record<string, unknown>);
      const answer = await Promise.race([initialize, deadline]);
      if (answer === "timeout") {
        child.kill("SIGKILL");
        throw new EngineLoadError(`${options.initialize.plugin.directory}: the plugin did not load within ${bound / 1000} s`, "timeout");
      }
      const environment = answer as InitializeResult;
      const family = new EngineFamily(child, peer, options, environment, state);
      family.#stderrTail = state.stderr;
      if (state.pendingHooks) family.#hostHooks = state.pendingHooks;
      if (state.exit) family.#exit = state.exit;
      return family;
    } catch (error) {
      child.kill("SIGKILL");
      await Promise.race([started.exited, new Promise((resolve) => setTimeout(resolve, 500))]);
      throw asLoadError(error, options, state.stderr);
    } finally {
      clearTimeout(timer);
    }
  }

  get exited(): { code: number | null; signal: string | null } | null {
    return this.#exit;
  }

  /** (The process's stderr and exit, as they happen.) */
  noteStderr(tail: string): void {
    this.#stderrTail = tail;
  }

  noteExit(exit: { code: number | null; signal: string | null }): void {
    this.#exit = exit;
  }

  get stderrTail(): string {
    return this.#stderrTail;
  }

  /** Host internals the engine tried to import, in the order it reached for them. */
  get hostModules(): HostModuleRecord[] {
    return [...this.#hostModules];
  }

  /** Host hooks the plugin registered with the plugin manager (`post_llm_call` → count). */
  get hostHooks(): Record<string, number> {
    return { ...this.#hostHooks };
  }

  /** The plugin manager's hooks changed (the `hooks` notification). */
  setHostHooks(hooks: Record<string, number>): void {
    this.#hostHooks = { ...hooks };
    for (const listener of this.#onHooks) listener();
  }

  onHostHooksChanged(listener: () => void): () => void {
    this.#onHooks.add(listener);
    return () => this.#onHooks.delete(listener);
  }

  /** A fresh engine instance in this process (a `register(ctx)` call, a constructor, or a clone for a general plugin). */
  async describeNew(): Promise<EngineDescription> {
    const bound = this.options.loadTimeoutMs ?? DEFAULT_LOAD_TIMEOUT_MS;
    try {
      return (await this.request("create", {}, bound, "register(ctx) or constructor")) as EngineDescription;
    } catch (error) {
      throw asLoadError(error, this.options, this.#stderrTail);
    }
  }

  /**
   * One request, bounded: past `timeoutMs` (default the call bound) the process is stopped, since
   * nothing else can end a call stuck in engine code; every other call in flight fails with it
   * (the channel's close rejects them all, this one included).
   */
  request(method: string, params: Record<string, unknown>, timeoutMs?: number, what: string = method, sent?: (id: number) => void): Promise<unknown> {
    const answer = this.#peer.request(method, params, sent);
    if (!this.#peer.closed) this.#watchdog.watch(this.#peer.lastRequestId, timeoutMs ?? this.options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS, what);
    return answer;
  }

  /** (An answer settled a request: the watchdog lets the process exit when none is left.) */
  noteSettled(): void {
    if (this.#peer.pendingCount === 0) this.#watchdog.idle();
  }

  notify(method: string, params: Record<string, unknown>): void {
    this.#peer.notify(method, params);
  }

  /** Stop the process now; calls in flight fail with the reason. */
  kill(reason: string): void {
    this.#peer.close(reason);
    if (this.#exit === null) this.#child.kill("SIGKILL");
  }

  /** Ask the engine side to shut down (engines' `shutdown()` run, bounded), then make sure it is gone. */
  async dispose(): Promise<void> {
    if (this.#exit !== null) return;
    const gone = new Promise<void>((resolve) => {
      if (this.#exit !== null) return resolve();
      this.#child.once("exit", () => resolve());
    });
    if (!this.#peer.closed) this.request("shutdown", {}, SHUTDOWN_GRACE_MS + 1000, "shutdown").catch(() => undefined);
    const timer = setTimeout(() => this.kill("disposed"), SHUTDOWN_GRACE_MS + 500);
    await gone;
    clearTimeout(timer);
  }
}

interface FamilyState {
  family: EngineFamily | null;
  hostModules: HostModuleRecord[];
  stderr: string;
  pendingHooks: Record<string, number> | null;
  exit: { code: number | null; signal: string | null } | null;
  onStderr: ((text: string) => void) | null;
}

/** The parts of FamilyOptions a process needs before it is given a plugin. */
export type ProcessOptions = Omit<FamilyOptions, "initialize">;

/**
 * An engine-side process that has not been given a plugin yet. `EngineFamily.adopt` loads one
 * into it; a factory forks one from its fork server, or keeps one started ahead of need, so a
 * fresh engine does not wait for an interpreter to start.
 */
export class EngineProcess {
  readonly child: EngineChild;
  readonly peer: JsonRpcPeer;
  readonly state: FamilyState;
  readonly exited: Promise<void>;

  private constructor(child: EngineChild, peer: JsonRpcPeer, state: FamilyState, exited: Promise<void>) {
    this.child = child;
    this.peer = peer;
    this.state = state;
    this.exited = exited;
  }

  static spawn(options: ProcessOptions): EngineProcess {
    const child = spawn(options.command, [...options.args], { cwd: options.cwd, env: options.env, stdio: ["pipe", "pipe", "pipe"] });
    killOnExit(child);
    const started = EngineProcess.over(child, { input: child.stdin!, output: child.stdout!, stderr: child.stderr! }, options);
    child.unref();
    return started;
  }

  /** The protocol over a started process's streams (spawned here, or forked by a fork server). */
  static over(child: EngineChild, streams: EngineStreams, options: ProcessOptions): EngineProcess {
    const state: FamilyState = { family: null, hostModules: [], stderr: "", pendingHooks: null, exit: null, onStderr: options.onStderr ?? null };
    const peer = new JsonRpcPeer(streams.output, streams.input, {
      onRequest: (method, params) => answerEngine(state.family?.options ?? options, method, params),
      onNotification: (method, params) => onNotification(state, method, params),
      onSettled: () => state.family?.noteSettled(),
      ...(options.onMessage ? { onMessage: options.onMessage } : {}),
    });
    streams.stderr.on("data", (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      state.stderr = (state.stderr + text).slice(-STDERR_TAIL_BYTES);
      state.family?.noteStderr(state.stderr);
      state.onStderr?.(text);
    });
    const exited = new Promise<void>((resolve) => {
      child.once("exit", (code, signal) => {
        state.exit = { code, signal };
        state.family?.noteExit(state.exit);
        peer.close(describeExit(code, signal, state.stderr));
        resolve();
      });
      child.once("error", (error) => {
        peer.close(`could not start ${options.command}: ${error.message}`);
        resolve();
      });
    });
    for (const stream of [streams.input, streams.output, streams.stderr]) (stream as { unref?: () => void }).unref?.();
    // A forked process's sockets were read (their first byte) before these listeners: let them flow.
    streams.output.resume();
    streams.stderr.resume();
    return new EngineProcess(child, peer, state, exited);
  }

  /** Still usable: not exited, channel open. */
  get alive(): boolean {
    return this.state.exit === null && this.peer.closed === null;
  }

  kill(): void {
    this.peer.close("not needed");
    this.child.kill("SIGKILL");
  }
}

function onNotification(state: FamilyState, method: string, params: Record<string, unknown>): void {
  if (method === "imports" && Array.isArray(params["modules"])) {
    for (const record of params["modules"] as HostModuleRecord[]) {
      const known = state.hostModules.find((entry) => entry.module === record.module);
      if (known) known.outcome = record.outcome;
      else state.hostModules.push({ module: record.module, outcome: record.outcome });
    }
  } else if (method === "hooks" && params["hooks"] !== null && typeof params["hooks"] === "object") {
    const hooks = params["hooks"] as Record<string, number>;
    const family = state.family;
    if (!family) {
      state.pendingHooks = hooks;
      return;
    }
    family.setHostHooks(hooks);
  }
}

async function answerEngine(options: ProcessOptions, method: string, params: Record<string, unknown>): Promise<unknown> {
  if (method !== "llm.call") throw new RpcError(ERROR_CODES.methodNotFound, `the host has no method ${method}`, null);
  const answer = options.llm ? await options.llm(params as unknown as LlmCallParams) : { error: { kind: "connection", message: "no LLM is attached to this run" } };
  if ("error" in answer) throw new RpcError(ERROR_CODES.llmFailed, answer.error.message, { kind: answer.error.kind });
  return { content: answer.content };
}

function describeExit(code: number | null, signal: string | null, stderr: string): string {
  const how = signal ? `was killed (${signal})` : `exited with code ${code}`;
  const tail = lastLine(stderr);
  return `the engine's process ${how}${tail ? `: ${tail}` : ""}`;
}

function lastLine(text: string): string {
  const lines = text.trim().split("\n");
  return (lines[lines.length - 1] ?? "").trim().slice(0, 300);
}

function asLoadError(error: unknown, options: FamilyOptions, stderr: string): EngineLoadError {
  if (error instanceof EngineLoadError) return error;
  if (error instanceof RpcError) {
    const stage = (error.data as { stage?: unknown } | null)?.stage;
    return new EngineLoadError(error.message, typeof stage === "string" ? stage : "load");
  }
  const message = error instanceof Error ? error.message : String(error);
  return new EngineLoadError(`${options.initialize.plugin.directory}: ${message || lastLine(stderr)}`, "process");
}
