interface Watched {
  deadline: number;
  what: string;
  boundMs: number;
}

/** Past this many watched requests, the answered ones are dropped (they are usually all but the last). */
const SWEEP_AT = 64;

/**
 * The bounds of a family's requests, kept by one timer rather than one per request (a timer, a
 * guard promise and a race per call were a measurable part of a no-op round trip). The timer
 * holds the event loop open only while a request is in flight, as the per-request timers did.
 */
export class Watchdog {
  readonly #watched = new Map<number, Watched>();
  readonly #isPending: (id: number) => boolean;
  readonly #expire: (reason: string) => void;
  #timer: NodeJS.Timeout | null = null;
  #timerAt = Infinity;

  constructor(isPending: (id: number) => boolean, expire: (reason: string) => void) {
    this.#isPending = isPending;
    this.#expire = expire;
  }

  /** Request `id` must be answered within `boundMs`, else `expire` is called (once). */
  watch(id: number, boundMs: number, what: string): void {
    if (this.#watched.size >= SWEEP_AT) this.#sweep();
    const deadline = performance.now() + boundMs;
    this.#watched.set(id, { deadline, what, boundMs });
    if (this.#timer === null || deadline < this.#timerAt) this.#arm(deadline);
    else this.#timer.ref();
  }

  /** No request is in flight: let the process exit (the timer stays, unreferenced, for the next one). */
  idle(): void {
    this.#watched.clear();
    this.#timer?.unref();
  }

  #arm(deadline: number): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timerAt = deadline;
    this.#timer = setTimeout(() => this.#check(), Math.max(0, deadline - performance.now()));
  }

  #sweep(): void {
    for (const id of this.#watched.keys()) if (!this.#isPending(id)) this.#watched.delete(id);
  }

  #check(): void {
    this.#timer = null;
    this.#timerAt = Infinity;
    this.#sweep();
    const now = performance.now();
    let next = Infinity;
    for (const watched of this.#watched.values()) {
      if (watched.deadline <= now) {
        this.#watched.clear();
        this.#expire(`the engine's ${watched.what} did not return within ${watched.boundMs / 1000} s; its process was stopped`);
        return;
      }
      next = Math.min(next, watched.deadline);
    }
    if (next !== Infinity) this.#arm(next);
  }
}
