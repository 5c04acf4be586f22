import type { Readable, Writable } from "node:stream";

/** A JSON-RPC 2.0 error answer from the other side. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown,
  ) {
    super(message);
    this.name = "RpcError";
  }
}

/** The channel ended (the child exited, a bound struck, or it broke the protocol); every pending request fails with it. */
export class ChannelClosed extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ChannelClosed";
  }
}

export interface PeerHandlers {
  /** A request from the other side; the answer (or a thrown RpcError) goes back. */
  onRequest(method: string, params: Record<string, unknown>): Promise<unknown>;
  onNotification(method: string, params: Record<string, unknown>): void;
  /** Every message in either direction, for tests that validate the traffic. */
  onMessage?(direction: "in" | "out", message: unknown): void;
  /** An answer settled one of our requests, or the channel's end settled them all (`pendingCount` says how many are left). */
  onSettled?(): void;
}

export interface PeerLimits {
  /** A longer incoming line ends the channel (default 512 MiB). */
  maxLineBytes?: number;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export const DEFAULT_MAX_LINE_BYTES = 512 * 1024 * 1024;

/**
 * Newline-delimited JSON-RPC 2.0 over a pair of streams. Reading is linear in the bytes read: a
 * chunk is searched for newlines once and partial lines are kept as a list of chunks.
 */
export class JsonRpcPeer {
  readonly #output: Writable;
  readonly #handlers: PeerHandlers;
  readonly #maxLine: number;
  readonly #pending = new Map<number, Pending>();
  #partial: Buffer[] = [];
  #partialBytes = 0;
  #nextId = 1;
  #closed: ChannelClosed | null = null;

  constructor(input: Readable, output: Writable, handlers: PeerHandlers, limits: PeerLimits = {}) {
    this.#output = output;
    this.#handlers = handlers;
    this.#maxLine = limits.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    input.on("data", (chunk: Buffer) => this.#read(chunk));
    output.on("error", (error: Error) => this.close(`the channel could not be written: ${error.message}`));
  }

  get closed(): ChannelClosed | null {
    return this.#closed;
  }

  get pendingCount(): number {
    return this.#pending.size;
  }

  /** The id of the request sent last (0 before the first). */
  get lastRequestId(): number {
    return this.#nextId - 1;
  }

  isPending(id: number): boolean {
    return this.#pending.has(id);
  }

  /** Send a request; `sent` learns its id before the answer arrives (for cancellation). */
  request(method: string, params: Record<string, unknown>, sent?: (id: number) => void): Promise<unknown> {
    if (this.#closed) return Promise.reject(this.#closed);
    const id = this.#nextId++;
    const answer = new Promise<unknown>((resolve, reject) => this.#pending.set(id, { resolve, reject }));
    this.#write({ jsonrpc: "2.0", id, method, params });
    sent?.(id);
    return answer;
  }

  notify(method: string, params: Record<string, unknown>): void {
    if (this.#closed) return;
    this.#write({ jsonrpc: "2.0", method, params });
  }

  /** End the channel: every pending request rejects with the reason. */
  close(reason: string): void {
    if (this.#closed) return;
    this.#closed = new ChannelClosed(reason);
    for (const pending of this.#pending.values()) pending.reject(this.#closed);
    this.#pending.clear();
    this.#handlers.onSettled?.();
  }

  #write(message: Record<string, unknown>): void {
    this.#handlers.onMessage?.("out", message);
    this.#output.write(`${JSON.stringify(message)}\n`);
  }

  #read(chunk: Buffer): void {
    if (this.#closed) return;
    let start = 0;
    for (let newline = chunk.indexOf(10); newline >= 0; newline = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, newline);
      const line = this.#partial.length === 0 ? piece : Buffer.concat([...this.#partial, piece]);
      this.#partial = [];
      this.#partialBytes = 0;
      start = newline + 1;
      if (line.length > this.#maxLine) return this.close(`a line of ${line.length} bytes exceeds the limit of ${this.#maxLine}`);
      if (line.length > 0) this.#receive(line.toString("utf8"));
      if (this.#closed) return;
    }
    if (start < chunk.length) {
      this.#partial.push(chunk.subarray(start));
      this.#partialBytes += chunk.length - start;
      if (this.#partialBytes > this.#maxLine) this.close(`a line longer than ${this.#maxLine} bytes`);
    }
  }

  #receive(line: string): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      return this.close(`the other side wrote a line that is not JSON: ${line.slice(0, 120)}`);
    }
    this.#handlers.onMessage?.("in", message);
    if (message === null || typeof message !== "object" || (message as { jsonrpc?: unknown }).jsonrpc !== "2.0") {
      return this.close(`the other side wrote a line that is not a JSON-RPC 2.0 message: ${line.slice(0, 120)}`);
    }
    const { id, method, params, result, error } = message as { id?: unknown; method?: unknown; params?: unknown; result?: unknown; error?: unknown };
    if (typeof method === "string") {
      const args = params !== null && typeof params === "object" && !Array.isArray(params) ? (params as Record<string, unknown>) : {};
      if (id === undefined || id === null) this.#handlers.onNotification(method, args);
      else this.#answer(id, method, args);
      return;
    }
    const pending = typeof id === "number" ? this.#pending.get(id) : undefined;
    if (!pending) return;
    this.#pending.delete(id as number);
    if (error !== undefined) {
      const { code, message: text, data } = (error ?? {}) as { code?: unknown; message?: unknown; data?: unknown };
      pending.reject(new RpcError(typeof code === "number" ? code : -32603, typeof text === "string" ? text : "error", data));
    } else {
      pending.resolve(result);
    }
    this.#handlers.onSettled?.();
  }

  #answer(id: unknown, method: string, params: Record<string, unknown>): void {
    this.#handlers.onRequest(method, params).then(
      (result) => this.#closed || this.#write({ jsonrpc: "2.0", id, result: result ?? null }),
      (failure: unknown) => {
        if (this.#closed) return;
        const error = failure instanceof RpcError ? { code: failure.code, message: failure.message, data: failure.data } : { code: -32603, message: failure instanceof Error ? failure.message : String(failure) };
        this.#write({ jsonrpc: "2.0", id, error });
      },
    );
  }
}
