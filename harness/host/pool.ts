/**
 * A bounded pool for compaction passes across sessions. Unlike upstream (which fails fast when
 * saturated), a pass waits for a slot in FIFO order, so a seeded run gives the same trace.
 */
export class PassPool {
  readonly size: number;
  #active = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(size: number) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`pool size must be a positive integer, got ${size}`);
    this.size = size;
  }

  get active(): number {
    return this.#active;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#active >= this.size) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else this.#active++;
    try {
      return await work();
    } finally {
      const next = this.#waiting.shift();
      if (next !== undefined) next();
      else this.#active--;
    }
  }
}
