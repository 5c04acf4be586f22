/** What the engine printed on one stream: counted in full, kept only at the start and the end. */
export interface CapturedStream {
  bytes: number;
  lines: number;
  head: string;
  tail: string;
}

export class StreamCapture {
  #bytes = 0;
  #lines = 0;
  #head = "";
  #tail = "";

  constructor(private readonly capChars: number) {}

  push(chunk: Buffer | string): void {
    const text = typeof chunk === "string" ? chunk : chunk.toString("utf8");
    this.#bytes += typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.length;
    for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) this.#lines++;
    if (this.#head.length < this.capChars) this.#head += text.slice(0, this.capChars - this.#head.length);
    this.#tail = (this.#tail + text).slice(-this.capChars);
  }

  get captured(): CapturedStream {
    return { bytes: this.#bytes, lines: this.#lines, head: this.#head, tail: this.#tail };
  }
}

/** Adds up what several players printed. */
export function addCaptured(streams: readonly CapturedStream[]): CapturedStream {
  const present = streams.filter((stream) => stream.bytes > 0);
  return {
    bytes: present.reduce((sum, stream) => sum + stream.bytes, 0),
    lines: present.reduce((sum, stream) => sum + stream.lines, 0),
    head: present[0]?.head ?? "",
    tail: present.at(-1)?.tail ?? "",
  };
}
