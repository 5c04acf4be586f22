import { spawn, type ChildProcess } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import type { EngineInfo } from "../plugins/spec.ts";
import { TraceDecodeError, TraceDecoder } from "../trace/interned.ts";
import type { Trace } from "../trace/events.ts";
import { FrameReader, newSecret } from "./frames.ts";
import { GroupCpuWait } from "./cpu-wait.ts";
import { playerArguments, type PlayerRole } from "./locate.ts";
import { StreamCapture, type CapturedStream } from "./output.ts";
import { asPlayerMessage, PLAYER_PROTOCOL_VERSION, ProtocolError, type Command, type IntegrityFinding, type PlayCommand, type PlayerMessage, type PlayerPlan, type SourceStats } from "./protocol.ts";

export type ReadyOutcome = { ok: true; engine: EngineInfo | null; integrity: IntegrityFinding[] } | { ok: false; message: string };

export type PlayOutcome =
  | { ok: true; trace: Trace; stats: SourceStats; integrity: IntegrityFinding[] }
  | { ok: false; outcome: "timeout" | "error"; message: string; integrity: IntegrityFinding[] };

export type BenchOutcome = { ok: true; result: Record<string, unknown> } | { ok: false; outcome: "timeout" | "error"; message: string };

/** The parent's handle on one player, in its own process or (for a debugger) in this one. */
/**
 * The wall-clock end of an operation (the run's `--max-time`, a `performance.now()` value) and
 * what a timeout says when it strikes there. The operation's own bound (`timeoutMs`) counts only
 * the player's own time; this one counts every second.
 */
export interface WallDeadline {
  at: number;
  message: string;
}

export interface PlayerConnection {
  /** Waits for `ready` or `load-failed` (or the player's death) at most `timeoutMs`. */
  ready(timeoutMs: number, deadline?: WallDeadline): Promise<ReadyOutcome>;
  /** Records one run; a timeout stops the player. `what` names the run in messages. */
  play(request: Omit<PlayCommand, "type" | "id">, timeoutMs: number, what: string, deadline?: WallDeadline): Promise<PlayOutcome>;
  bench(suite: string, options: { seed: number; quick: boolean }, timeoutMs: number, deadline?: WallDeadline): Promise<BenchOutcome>;
  /** Asks the player to finish (bounded), then makes sure it has. */
  close(): Promise<void>;
  kill(): void;
  /** Frames on the channel that failed authentication. */
  readonly forgedFrames: number;
  /** False once the player died, broke the protocol or was stopped. */
  readonly alive: boolean;
  /** What the player (the engine, mostly) printed. */
  output(): { stdout: CapturedStream; stderr: CapturedStream };
}

export interface PlayerProcessOptions {
  plan: PlayerPlan;
  /** The player's working directory (a sandbox). */
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The player's heap limit in MB (--max-old-space-size). */
  heapMb: number;
  /** Characters of each output stream kept at its start and end. */
  outputCapChars?: number;
  /** The program the player runs (default harness/player/entry); tests give a misbehaving one. */
  entry?: string;
  /** "bench" for a player given bench commands (default "play": it only plays runs). */
  role?: PlayerRole;
}

export const CLOSE_GRACE_MS = 2_000;

/**
 * Players still running. Each leads a process group of its own (the engine's children, such as a
 * Python bridge, are in it), so stopping one stops them all; and when this process ends, or is
 * interrupted, every group it started goes with it.
 */
const running = new Set<ChildProcess>();
function stopGroup(child: ChildProcess): void {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    child.kill("SIGKILL");
  }
}
let cleanupInstalled = false;
function installCleanup(): void {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  process.on("exit", () => {
    for (const child of running) stopGroup(child);
  });
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(signal, () => {
      for (const child of running) stopGroup(child);
      process.kill(process.pid, signal);
    });
  }
}
const OUT_OF_MEMORY = /JavaScript heap out of memory|Reached heap limit|Allocation failed/;

type Waiter = {
  /** Takes a message meant for the operation in flight (`size`: its frame's characters); returns true when the operation is done. */
  accept(message: PlayerMessage, size: number): boolean;
  /** The player can no longer answer (died, broke the protocol, was stopped). */
  fail(message: string, outcome: "timeout" | "error"): void;
};

/**
 * The parent's side of one player: sends commands, authenticates and validates every frame,
 * rebuilds traces, times each operation itself (a bound that strikes stops the player) and keeps
 * what the player printed, capped. Engine code never runs here.
 */
export class Session {
  #waiter: Waiter | null = null;
  /** Messages that came before anyone asked (a player is quick to say ready); at most a few. */
  readonly #early: Array<[PlayerMessage, number]> = [];
  #dead: string | null = null;
  #nextId = 0;
  forgedFrames = 0;

  constructor(
    private readonly sendCommand: (command: Command) => void,
    private readonly stop: () => void,
    private readonly lastWords: () => string,
    /** The player's time waiting for a CPU so far, ms (it does not count against a bound). */
    private readonly cpuWait: () => number = () => 0,
  ) {}

  /** A frame body from the channel. */
  accept(body: string): void {
    let message: PlayerMessage;
    try {
      message = asPlayerMessage(JSON.parse(body));
    } catch (error) {
      return this.violation(error instanceof ProtocolError ? error.message : `a frame that is not JSON (${(error as Error).message})`);
    }
    if (this.#waiter === null) {
      if (this.#early.length >= 4) return this.violation(`an unexpected ${message.type} message`);
      this.#early.push([message, body.length]);
      return;
    }
    this.#deliver(message, body.length);
  }

  #deliver(message: PlayerMessage, size: number): void {
    const waiter = this.#waiter!;
    try {
      if (waiter.accept(message, size)) this.#waiter = null;
    } catch (error) {
      this.violation(error instanceof Error ? error.message : String(error));
    }
  }

  forged(): void {
    this.forgedFrames += 1;
  }

  violation(problem: string): void {
    this.died(`broke the protocol (${problem})`);
    this.stop();
  }

  /** The player is gone or must be treated as gone; the operation in flight fails with `how`. */
  died(how: string, outcome: "timeout" | "error" = "error"): void {
    if (this.#dead === null) this.#dead = how;
    const waiter = this.#waiter;
    this.#waiter = null;
    waiter?.fail(how, outcome);
  }

  get dead(): string | null {
    return this.#dead;
  }

  run<T>(command: ((id: number) => Command) | null, timeoutMs: number, onTimeout: () => string, build: (resolve: (value: T) => void) => Waiter, deadline?: WallDeadline): Promise<T> {
    return new Promise<T>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const finish = (value: T) => {
        clearTimeout(timer);
        resolve(value);
      };
      const waiter = build(finish);
      if (this.#dead !== null) return waiter.fail(this.#dead + this.lastWords(), "error");
      this.#waiter = {
        accept: waiter.accept,
        fail: (how, outcome) => waiter.fail(outcome === "timeout" ? how : how + this.lastWords(), outcome),
      };
      const startedAt = performance.now();
      const waitedBefore = this.cpuWait();
      // Sampled at least every SAMPLE_MS, so the wait of an engine process that lives a moment is seen.
      const arm = (ms: number) => {
        timer = setTimeout(check, Math.max(1, Math.min(ms, GroupCpuWait.SAMPLE_MS)));
      };
      // The bound counts the player's own time: wall time less what it and its engine's processes
      // spent waiting for a CPU taken by other processes. The deadline (the run's --max-time) is wall time.
      const check = () => {
        const now = performance.now();
        const own = now - startedAt - (this.cpuWait() - waitedBefore);
        const toDeadline = deadline === undefined ? Infinity : deadline.at - now;
        if (own < timeoutMs && toDeadline > 0) return arm(Math.min(timeoutMs - own, toDeadline));
        const how = toDeadline <= 0 && own < timeoutMs ? deadline!.message : onTimeout();
        this.died(how, "timeout");
        this.stop();
      };
      arm(Math.min(timeoutMs, deadline === undefined ? Infinity : deadline.at - startedAt));
      if (command !== null) this.sendCommand(command(this.#nextId++));
      while (this.#waiter !== null && this.#early.length > 0) {
        const [message, size] = this.#early.shift()!;
        this.#deliver(message, size);
      }
    });
  }
}

function readyWaiter(resolve: (value: ReadyOutcome) => void): Waiter {
  return {
    accept(message) {
      if (message.type === "ready") {
        if (message.protocol !== PLAYER_PROTOCOL_VERSION) throw new Error(`the player speaks protocol ${message.protocol}`);
        resolve({ ok: true, engine: message.engine, integrity: message.integrity });
      } else if (message.type === "load-failed") resolve({ ok: false, message: message.message });
      else throw new Error(`${message.type} before ready`);
      return true;
    },
    fail: (how) => resolve({ ok: false, message: `the player ${how}` }),
  };
}

function playWaiter(id: () => number, resolve: (value: PlayOutcome) => void, limits: PlayerPlan["limits"]): Waiter {
  const decoder = new TraceDecoder();
  let started = false;
  let bytes = 0;
  return {
    accept(message, size) {
      if (!("id" in message) || message.id !== id()) throw new Error(`a ${message.type} message for another run`);
      if (message.type === "source-start") {
        if (started) throw new Error("source-start twice");
        started = true;
        return false;
      }
      if (!started) throw new Error(`${message.type} before source-start`);
      if (message.type === "trace") {
        bytes += size;
        if (bytes > limits.maxTraceBytes) throw new Error(`more than ${limits.maxTraceBytes} bytes of trace for one run`);
        try {
          decoder.addMessages(message.messages);
          for (const event of message.events) decoder.addEvent(event);
        } catch (error) {
          if (error instanceof TraceDecodeError) throw new Error(error.message);
          throw error;
        }
        return false;
      }
      if (message.type !== "source-end") throw new Error(`a ${message.type} message during a run`);
      if (message.status === "recorded") {
        if (message.stats.events !== decoder.events.length) throw new Error(`source-end counts ${message.stats.events} events, ${decoder.events.length} arrived`);
        resolve({ ok: true, trace: decoder.events, stats: message.stats, integrity: message.integrity });
      } else resolve({ ok: false, outcome: "error", message: message.message ?? "the run failed", integrity: message.integrity });
      return true;
    },
    fail: (how, outcome) => resolve({ ok: false, outcome, message: how, integrity: [] }),
  };
}

function benchWaiter(id: () => number, suite: string, resolve: (value: BenchOutcome) => void): Waiter {
  return {
    accept(message) {
      if (message.type !== "bench-result" || message.id !== id() || message.suite !== suite) throw new Error(`a ${message.type} message during a bench suite`);
      resolve(message.result === null ? { ok: false, outcome: "error", message: message.message ?? `bench suite ${suite} failed` } : { ok: true, result: message.result });
      return true;
    },
    fail: (how, outcome) => resolve({ ok: false, outcome, message: how }),
  };
}

/** Operations common to both kinds of connection, over a Session. */
export abstract class SessionConnection implements PlayerConnection {
  protected abstract readonly session: Session;
  protected abstract readonly limits: PlayerPlan["limits"];
  #currentId = -1;

  ready(timeoutMs: number, deadline?: WallDeadline): Promise<ReadyOutcome> {
    return this.session.run<ReadyOutcome>(
      null,
      timeoutMs,
      () => `did not finish loading the engine within ${seconds(timeoutMs)} (a constructor or an import that never returns, or a top-level await that never settles?)`,
      readyWaiter,
      deadline,
    );
  }

  play(request: Omit<PlayCommand, "type" | "id">, timeoutMs: number, what: string, deadline?: WallDeadline): Promise<PlayOutcome> {
    return this.session.run<PlayOutcome>(
      (id) => ((this.#currentId = id), { type: "play", id, ...request }),
      timeoutMs,
      () => what,
      (resolve) => playWaiter(() => this.#currentId, resolve, this.limits),
      deadline,
    );
  }

  bench(suite: string, options: { seed: number; quick: boolean }, timeoutMs: number, deadline?: WallDeadline): Promise<BenchOutcome> {
    return this.session.run<BenchOutcome>(
      (id) => ((this.#currentId = id), { type: "bench", id, suite, options }),
      timeoutMs,
      () => `bench suite ${suite} did not finish within ${seconds(timeoutMs)}`,
      (resolve) => benchWaiter(() => this.#currentId, suite, resolve),
      deadline,
    );
  }

  get forgedFrames(): number {
    return this.session.forgedFrames;
  }

  get alive(): boolean {
    return this.session.dead === null;
  }

  abstract close(): Promise<void>;
  abstract kill(): void;
  abstract output(): { stdout: CapturedStream; stderr: CapturedStream };
}

/** A player in its own process (the default): authenticated frames on fd 3, the engine's prints on fd 1 and 2. */
export class PlayerProcess extends SessionConnection {
  protected readonly session: Session;
  protected readonly limits: PlayerPlan["limits"];
  readonly #child: ChildProcess;
  readonly #stdout: StreamCapture;
  readonly #stderr: StreamCapture;
  readonly #exited: Promise<void>;

  constructor(options: PlayerProcessOptions) {
    super();
    this.limits = options.plan.limits;
    const cap = options.outputCapChars ?? 4096;
    this.#stdout = new StreamCapture(cap);
    this.#stderr = new StreamCapture(cap);
    const secret = newSecret();
    const program = options.entry === undefined ? playerArguments(options.role) : ["--import", import.meta.resolve("tsx"), options.entry];
    this.#child = spawn(process.execPath, [`--max-old-space-size=${options.heapMb}`, ...program], {
      cwd: options.cwd,
      env: options.env,
      stdio: ["pipe", "pipe", "pipe", "pipe"],
      detached: true,
    });
    const child = this.#child;
    installCleanup();
    running.add(child);
    const cpuWait = new GroupCpuWait(child.pid);
    this.session = new Session(
      (command) => void (child.stdin as Writable).write(`${JSON.stringify(command)}\n`),
      () => this.kill(),
      () => this.#lastWords(),
      () => cpuWait.read(),
    );
    const reader = new FrameReader(secret, this.limits.maxFrameBytes, {
      frame: (body) => this.session.accept(body),
      forged: () => this.session.forged(),
      overflow: (bytes) => this.session.violation(`a frame line of more than ${bytes} bytes, over the limit of ${this.limits.maxFrameBytes}`),
    });
    (child.stdio[3] as Readable).on("data", (chunk: Buffer) => reader.push(chunk));
    (child.stdio[3] as Readable).on("error", () => undefined);
    child.stdout!.on("data", (chunk: Buffer) => this.#stdout.push(chunk));
    child.stderr!.on("data", (chunk: Buffer) => this.#stderr.push(chunk));
    child.stdin!.on("error", () => undefined);
    this.#exited = new Promise((resolve) => {
      child.on("error", (error) => {
        this.session.died(`could not be started (${error.message})`);
        resolve();
      });
      child.on("close", (code, signal) => {
        running.delete(child);
        const memory = OUT_OF_MEMORY.test(this.#stderr.captured.tail) ? `, out of memory (heap limit ${options.heapMb} MB)` : "";
        this.session.died(`exited (${signal !== null ? `signal ${signal}` : `code ${code}`}${memory})`);
        resolve();
      });
    });
    child.stdin!.write(`${secret}\n${JSON.stringify({ type: "hello", protocol: PLAYER_PROTOCOL_VERSION, plan: options.plan } satisfies Command)}\n`);
  }

  async close(): Promise<void> {
    if (this.session.dead === null) {
      await this.session.run<void>(() => ({ type: "bye" }), CLOSE_GRACE_MS, () => "did not close", (resolve) => ({
        accept: (message) => {
          if (message.type !== "closing") throw new Error(`${message.type} instead of closing`);
          resolve();
          return true;
        },
        fail: () => resolve(),
      }));
      const timer = setTimeout(() => this.kill(), CLOSE_GRACE_MS);
      await this.#exited;
      clearTimeout(timer);
      return;
    }
    this.kill();
    await this.#exited;
  }

  kill(): void {
    stopGroup(this.#child);
  }

  output(): { stdout: CapturedStream; stderr: CapturedStream } {
    return { stdout: this.#stdout.captured, stderr: this.#stderr.captured };
  }

  /** The end of what the player printed on stderr, for a message about its death. */
  #lastWords(): string {
    const tail = this.#stderr.captured.tail.trim().split("\n").slice(-3).join(" | ").slice(-400);
    return tail === "" ? "" : `; its last output: ${tail}`;
  }
}

/**
 * A player in this process (`--no-isolate`, for a debugger; harness/player/in-process.ts). Loaded
 * when asked for: it brings the player's side (the host, the store, the loaders) into a process
 * that otherwise only talks to players.
 */
export async function inProcessPlayer(plan: PlayerPlan): Promise<PlayerConnection> {
  const { InProcessPlayer } = await import("./in-process.ts");
  return new InProcessPlayer(plan);
}

const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);
