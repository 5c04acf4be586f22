import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes, timingSafeEqual } from "node:crypto";
import { EventEmitter } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { PassThrough, Writable } from "node:stream";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { killOnExit, type EngineChild, type EngineStreams } from "./family.ts";

/** How long a forked process may take to connect its two sockets before the fork counts as failed. */
const CONNECT_BOUND_MS = 10_000;
const SECRET_BYTES = 16;
/** After the server reports an exit, how long to wait for the channel to close (its last frames read) before saying so. */
const CLOSE_GRACE_MS = 200;

/** A bridge process a fork server made: killed by pid, its exit reported by the server that reaps it. */
class ForkedChild extends EventEmitter implements EngineChild {
  #exited = false;

  constructor(
    readonly pid: number,
    readonly channel: Socket,
  ) {
    super();
  }

  kill(signal: NodeJS.Signals): boolean {
    if (this.#exited) return false;
    try {
      process.kill(this.pid, signal);
      return true;
    } catch {
      return false;
    }
  }

  /** The server reaped it: say so once the channel has closed, so frames it wrote last are read first. */
  reaped(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.#exited) return;
    this.#exited = true;
    const emit = () => {
      clearTimeout(timer);
      this.emit("exit", code, signal);
    };
    const timer = setTimeout(emit, CLOSE_GRACE_MS);
    if (this.channel.closed) emit();
    else this.channel.once("close", emit);
  }
}

interface PendingFork {
  resolve: (started: { child: ForkedChild; streams: EngineStreams } | null) => void;
  server: Server;
  dir: string;
  path: string;
  /** What the fork sends after its tag (hex): a connection without it is not the fork's. */
  secret: string;
  /** Every connection accepted for it: those not taken as its channel or stderr are closed when it settles. */
  connections: Set<Socket>;
  channel?: Socket;
  stderr?: Socket;
  pid?: number;
  timer: NodeJS.Timeout;
}

/**
 * The Hermes bridge's fork server (bridge/hermes/lib/_ctxbench_bridge/forks.py): one interpreter,
 * started once, forks a bridge process per engine family instead of a new interpreter starting for
 * each, which was most of a short run's Python CPU time. Each fork connects back over a Unix socket
 * of its own. `fork()` answers null when the server cannot fork (it never started, or it died):
 * the caller then spawns as before.
 */
export class ForkServer {
  readonly #process: ChildProcess;
  readonly #pending = new Map<number, PendingFork>();
  readonly #children = new Map<number, ForkedChild>();
  #nextId = 1;
  #buffer = "";
  #dead = false;
  readonly #socketRoot: string;

  /** `socketRoot`: where each fork's socket directory goes (default the system's temporary directory). */
  constructor(options: { command: string; args: readonly string[]; cwd?: string; env?: NodeJS.ProcessEnv; socketRoot?: string }) {
    this.#socketRoot = options.socketRoot ?? tmpdir();
    this.#process = spawn(options.command, [...options.args, "--fork-server"], { cwd: options.cwd, env: options.env, stdio: ["pipe", "pipe", "ignore"] });
    killOnExit(this.#process);
    this.#process.stdout!.setEncoding("utf8");
    this.#process.stdout!.on("data", (text: string) => this.#read(text));
    this.#process.once("exit", () => this.#die());
    this.#process.once("error", () => this.#die());
    this.#process.stdin!.on("error", () => this.#die());
    (this.#process.stdout as unknown as { unref?: () => void }).unref?.();
    (this.#process.stdin as unknown as { unref?: () => void }).unref?.();
    this.#process.unref();
  }

  get alive(): boolean {
    return !this.#dead;
  }

  /** A new bridge process, its channel and stderr connected; null when the server cannot make one. */
  fork(): Promise<{ child: EngineChild; streams: EngineStreams } | null> {
    if (this.#dead) return Promise.resolve(null);
    const id = this.#nextId++;
    // A directory of its own, only this user's, gone once the fork has connected: nothing is left
    // behind by a player that ends without closing its server.
    let dir: string;
    try {
      dir = mkdtempSync(join(this.#socketRoot, "cxb-fork-"));
    } catch {
      return Promise.resolve(null);
    }
    const path = join(dir, "socket");
    // The socket's directory is only this user's, but so are the engines' processes: the secret,
    // which only the server (over its stdin) and so only the fork it makes learn, keeps another
    // fork's engine from connecting first and being taken for this fork's bridge.
    const secret = randomBytes(SECRET_BYTES).toString("hex");
    return new Promise((resolve) => {
      const server = createServer((socket) => this.#accepted(id, socket));
      const pending: PendingFork = { resolve, server, dir, path, secret, connections: new Set(), timer: setTimeout(() => this.#fail(id), CONNECT_BOUND_MS) };
      this.#pending.set(id, pending);
      server.on("error", () => this.#fail(id));
      server.listen(path, () => {
        server.unref();
        if (this.#dead) return this.#fail(id);
        this.#process.stdin!.write(`${JSON.stringify({ fork: id, path, secret })}\n`);
      });
    });
  }

  /** End the server (stdin's end kills the forks it still has) and any fork still running here. */
  close(): void {
    this.#process.stdin!.end();
    this.#die();
  }

  /** A connection is the fork's channel or stderr once it has sent its tag ("c" or "e") and the fork's secret. */
  #accepted(id: number, socket: Socket): void {
    const pending = this.#pending.get(id);
    if (pending === undefined) return void socket.destroy();
    pending.connections.add(socket);
    const greeting = 1 + pending.secret.length;
    const onReadable = () => {
      // Null until all of it has come (another "readable" follows); what a closed connection sent, if shorter.
      const chunk = socket.read(greeting) as Buffer | null;
      if (chunk === null) return;
      socket.off("readable", onReadable);
      const sent = chunk.subarray(1);
      const known = Buffer.from(pending.secret, "latin1");
      if (sent.length !== known.length || !timingSafeEqual(sent, known)) return void socket.destroy();
      const tag = String.fromCharCode(chunk[0]!);
      if (tag === "c" && pending.channel === undefined) pending.channel = socket;
      else if (tag === "e" && pending.stderr === undefined) pending.stderr = socket;
      else return void socket.destroy();
      this.#settle(id);
    };
    socket.on("readable", onReadable);
    socket.on("error", () => undefined);
  }

  #read(text: string): void {
    this.#buffer += text;
    let newline: number;
    while ((newline = this.#buffer.indexOf("\n")) >= 0) {
      const line = this.#buffer.slice(0, newline);
      this.#buffer = this.#buffer.slice(newline + 1);
      let event: { forked?: number; pid?: number; error?: string; exit?: number; code?: number | null; signal?: NodeJS.Signals | null };
      try {
        event = JSON.parse(line) as typeof event;
      } catch {
        continue;
      }
      if (typeof event.forked === "number") {
        const pending = this.#pending.get(event.forked);
        if (pending === undefined) continue;
        if (typeof event.pid !== "number") this.#fail(event.forked);
        else {
          pending.pid = event.pid;
          this.#settle(event.forked);
        }
      } else if (typeof event.exit === "number") {
        const child = this.#children.get(event.exit);
        this.#children.delete(event.exit);
        child?.reaped(event.code ?? null, event.signal ?? null);
        // A fork that ended before it connected.
        for (const [id, pending] of this.#pending) if (pending.pid === event.exit) this.#fail(id);
      }
    }
  }

  #settle(id: number): void {
    const pending = this.#pending.get(id);
    if (pending?.pid === undefined || pending.channel === undefined || pending.stderr === undefined) return;
    this.#finish(id);
    const child = new ForkedChild(pending.pid, pending.channel);
    this.#children.set(pending.pid, child);
    killOnExit(child);
    pending.resolve({ child, streams: channelStreams(pending.channel, pending.stderr) });
  }

  #fail(id: number): void {
    const pending = this.#pending.get(id);
    if (pending === undefined) return;
    this.#finish(id);
    pending.channel?.destroy();
    pending.stderr?.destroy();
    if (pending.pid !== undefined) {
      try {
        process.kill(pending.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    pending.resolve(null);
  }

  #finish(id: number): void {
    const pending = this.#pending.get(id)!;
    this.#pending.delete(id);
    clearTimeout(pending.timer);
    pending.server.close();
    for (const socket of pending.connections) if (socket !== pending.channel && socket !== pending.stderr) socket.destroy();
    rmSync(pending.dir, { recursive: true, force: true });
  }

  #die(): void {
    if (this.#dead) return;
    this.#dead = true;
    for (const id of [...this.#pending.keys()]) this.#fail(id);
    for (const [pid, child] of this.#children) {
      // The server reaps and reports; gone, it cannot: they are killed here and reported killed once their channel closes.
      this.#children.delete(pid);
      child.kill("SIGKILL");
      child.reaped(null, "SIGKILL");
    }
  }
}

/**
 * The channel as a spawned process's pipes behave: a socket whose process died reports a reset
 * (ECONNRESET) before the fork server has said how the process ended, so its errors are dropped
 * here and a write to it goes nowhere; the exit report then closes the channel, naming the exit.
 */
function channelStreams(channel: Socket, stderr: Socket): EngineStreams {
  const output = new PassThrough();
  channel.on("data", (chunk: Buffer) => output.write(chunk));
  channel.once("end", () => output.end());
  channel.on("error", () => undefined);
  stderr.on("error", () => undefined);
  const input = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (channel.destroyed || !channel.writable) return done();
      channel.write(chunk, () => done());
    },
  });
  return { input, output, stderr };
}
