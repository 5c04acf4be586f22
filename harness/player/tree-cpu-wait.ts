import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * How long a player and the processes it started have spent runnable but waiting for a CPU taken
 * by other work, in ms, from Linux's schedstat files (their second field, in ns); 0 where there
 * are none (another OS). A run's bound subtracts this, so a machine busy with other work does not
 * time out a healthy engine — including one whose hooks run in a child of the player (a Python
 * engine behind the Hermes bridge), which the player merely waits for.
 *
 * Counted: the player's main thread (where it does its work), and every thread of every
 * descendant (the bridge runs calls on threads of a pool). A descendant that has exited keeps the
 * wait it was last seen with, so `read()` never goes back; call it often enough (the bound's
 * timer samples every SAMPLE_MS) to see short-lived children. Waits of threads that were runnable
 * at the same moment add up, which can only lengthen the bound; the run's wall-clock `--max-time`
 * still ends everything.
 */
export class TreeCpuWait {
  /** How often a bound's timer should sample, ms. */
  static readonly SAMPLE_MS = 200;
  readonly #root: number | undefined;
  readonly #proc: string;
  /** The wait last read of each thread, by `pid/tid`. */
  readonly #last = new Map<string, number>();
  /** The wait of threads no longer there (exited, or their id reused). */
  #gone = 0;

  constructor(root: number | undefined, proc = "/proc") {
    this.#root = root;
    this.#proc = proc;
  }

  read(): number {
    if (this.#root === undefined) return 0;
    const now = new Map<string, number>();
    const main = waitMs(join(this.#proc, String(this.#root), "schedstat"));
    if (main !== null) now.set(`${this.#root}/main`, main);
    for (const pid of descendants(this.#root, this.#proc)) {
      for (const tid of list(join(this.#proc, String(pid), "task"))) {
        const wait = waitMs(join(this.#proc, String(pid), "task", tid, "schedstat"));
        if (wait !== null) now.set(`${pid}/${tid}`, wait);
      }
    }
    for (const [key, before] of this.#last) {
      const after = now.get(key);
      if (after === undefined || after < before) this.#gone += before;
    }
    this.#last.clear();
    let total = this.#gone;
    for (const [key, wait] of now) {
      this.#last.set(key, wait);
      total += wait;
    }
    return total;
  }
}

/** Every process below `root`, from each of its threads' `children` lists, breadth first. */
export function descendants(root: number, proc = "/proc"): number[] {
  const found: number[] = [];
  const queue = [root];
  const seen = new Set(queue);
  while (queue.length > 0) {
    const pid = queue.shift()!;
    for (const tid of list(join(proc, String(pid), "task"))) {
      for (const child of readText(join(proc, String(pid), "task", tid, "children")).split(/\s+/)) {
        const childPid = Number(child);
        if (child === "" || !Number.isSafeInteger(childPid) || seen.has(childPid)) continue;
        seen.add(childPid);
        found.push(childPid);
        queue.push(childPid);
      }
    }
  }
  return found;
}

function waitMs(file: string): number | null {
  const text = readText(file);
  if (text === "") return null;
  const waitNs = Number(text.trim().split(/\s+/)[1]);
  return Number.isFinite(waitNs) && waitNs >= 0 ? waitNs / 1e6 : null;
}

function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

function list(directory: string): string[] {
  try {
    return readdirSync(directory);
  } catch {
    return [];
  }
}
