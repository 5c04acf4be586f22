import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

// Taken once, when the harness loads and before any engine code runs: an engine that later
// replaces node:crypto's exports (syncBuiltinESMExports) cannot reach these.
const hmacOf = createHmac;
const equalBytes = timingSafeEqual;
const MAC_HEX = 64;

/** A fresh per-run secret: 32 random bytes, hex. */
export function newSecret(): string {
  return randomBytes(32).toString("hex");
}

/**
 * One frame line: `<hmac-sha256(secret, "n body") hex> <n> <body>\n`. `n` numbers the frames of
 * one player from 0, so a frame replayed or dropped by someone else on the channel is caught.
 */
export function frameLine(secret: string, n: number, body: string): string {
  const signed = `${n} ${body}`;
  return `${hmacOf("sha256", secret).update(signed).digest("hex")} ${signed}\n`;
}

export interface FrameHandlers {
  /** An authenticated frame's body, in order. */
  frame(body: string): void;
  /** A line that failed authentication (bad MAC, wrong number, malformed): dropped. */
  forged(reason: string): void;
  /** A line longer than the cap: the channel is no longer trusted. */
  overflow(bytes: number): void;
}

/**
 * Splits the player's frame channel into lines and authenticates each. Linear in the bytes read:
 * a partial line is kept as a list of chunks and joined once, when its newline arrives.
 */
export class FrameReader {
  #parts: Buffer[] = [];
  #pendingBytes = 0;
  #next = 0;
  #closed = false;
  readonly #secret: string;
  readonly #maxFrameBytes: number;
  readonly #handlers: FrameHandlers;

  constructor(secret: string, maxFrameBytes: number, handlers: FrameHandlers) {
    this.#secret = secret;
    this.#maxFrameBytes = maxFrameBytes;
    this.#handlers = handlers;
  }

  push(chunk: Buffer): void {
    let start = 0;
    while (!this.#closed) {
      const newline = chunk.indexOf(10, start);
      if (newline < 0) {
        const rest = chunk.length - start;
        if (rest > 0) {
          this.#parts.push(start === 0 ? chunk : chunk.subarray(start));
          this.#pendingBytes += rest;
        }
        if (this.#pendingBytes > this.#maxFrameBytes) this.#overflow(this.#pendingBytes);
        return;
      }
      const piece = chunk.subarray(start, newline);
      const length = this.#pendingBytes + piece.length;
      if (length > this.#maxFrameBytes) return this.#overflow(length);
      const line = this.#parts.length === 0 ? piece : Buffer.concat([...this.#parts, piece], length);
      this.#parts = [];
      this.#pendingBytes = 0;
      this.#line(line);
      start = newline + 1;
    }
  }

  #overflow(bytes: number): void {
    this.#closed = true;
    this.#parts = [];
    this.#handlers.overflow(bytes);
  }

  #line(line: Buffer): void {
    if (line.length === 0) return;
    if (line.length < MAC_HEX + 3 || line[MAC_HEX] !== 32) return this.#handlers.forged("a line without a MAC");
    const signed = line.subarray(MAC_HEX + 1);
    const space = signed.indexOf(32);
    const n = space > 0 ? Number(signed.subarray(0, space).toString("latin1")) : Number.NaN;
    const expected = hmacOf("sha256", this.#secret).update(signed).digest();
    const given = Buffer.from(line.subarray(0, MAC_HEX).toString("latin1"), "hex");
    if (given.length !== expected.length || !equalBytes(given, expected)) return this.#handlers.forged("a line whose MAC does not verify");
    if (n !== this.#next) return this.#handlers.forged(`frame ${n} where frame ${this.#next} was due`);
    this.#next += 1;
    this.#handlers.frame(signed.subarray(space + 1).toString("utf8"));
  }
}
