import { readdirSync, readFileSync } from "node:fs";

/**
 * How long the processes of a player's process group (the player and the engine's own children,
 * such as a Python bridge) have been runnable but waiting for a CPU, in ms, from Linux's
 * schedstat files (their second field, in ns); 0 where the kernel does not say. A bound on a
 * player's run subtracts this, so a machine busy with other work does not make a healthy engine
 * time out: only the time the engine had (running, or waiting on its own hooks) counts.
 *
 * The leader (the player) counts its main thread, where it works; every other member counts all
 * its threads, since a Python bridge runs the engine's calls on threads of a pool, not its main
 * one. A member that has ended keeps the wait it was last seen with, so the total never goes back
 * (sample it often: the bound's timer does, every SAMPLE_MS). Threads waiting at the same moment
 * add up, which can only lengthen the bound; the run's wall-clock --max-time still ends it.
 *
 * Finding the members reads the stat file of every process on the machine (about 12 µs each), and
 * a player's wait is read at the start of every operation: on a desktop of 500 processes that
 * would be most of a second of the parent's CPU per certification. So the members are looked up
 * again only once SAMPLE_MS has passed since the last lookup; in between, only the known members'
 * schedstat files are read. A member that starts in between is found at the next lookup, all its
 * wait with it.
 */
export class GroupCpuWait {
  static readonly SAMPLE_MS = 250;
  readonly #group: number | undefined;
  readonly #clock: () => number;
  readonly #lookUp: (group: number) => number[];
  /** Each thread's wait last read, by `pid/tid`. */
  readonly #last = new Map<string, number>();
  /** The wait of threads no longer there. */
  #gone = 0;
  #members: number[] | null = null;
  #lookedUpAt = 0;

  constructor(group: number | undefined, options: { clock?: () => number; lookUp?: (group: number) => number[] } = {}) {
    this.#group = group;
    this.#clock = options.clock ?? (() => performance.now());
    this.#lookUp = options.lookUp ?? groupMembers;
  }

  read(): number {
    if (this.#group === undefined || process.platform !== "linux") return 0;
    const now = new Map<string, number>();
    for (const pid of this.#currentMembers(this.#group)) {
      if (pid === this.#group) {
        const wait = waitMs(`/proc/${pid}/schedstat`);
        if (wait !== null) now.set(`${pid}/main`, wait);
        continue;
      }
      for (const tid of listing(`/proc/${pid}/task`)) {
        const wait = waitMs(`/proc/${pid}/task/${tid}/schedstat`);
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

  #currentMembers(group: number): number[] {
    const at = this.#clock();
    if (this.#members === null || at - this.#lookedUpAt >= GroupCpuWait.SAMPLE_MS) {
      this.#members = this.#lookUp(group);
      this.#lookedUpAt = at;
    }
    return this.#members;
  }
}

/** The group's wait right now, without memory of members that ended (see GroupCpuWait). */
export function cpuWaitMs(group: number | undefined): number {
  return new GroupCpuWait(group).read();
}

function waitMs(file: string): number | null {
  try {
    const waitNs = Number(readFileSync(file, "utf8").trim().split(/\s+/)[1]);
    return Number.isFinite(waitNs) && waitNs >= 0 ? waitNs / 1e6 : null;
  } catch {
    return null; // gone since the listing
  }
}

function listing(directory: string): string[] {
  try {
    return readdirSync(directory);
  } catch {
    return [];
  }
}

/** The processes whose process group is `group` (the leader included). */
export function groupMembers(group: number): number[] {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return [];
  }
  const members: number[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // pid (comm) state ppid pgrp …; comm may hold spaces and parentheses.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) === group) members.push(Number(name));
    } catch {
      // Gone since the listing.
    }
  }
  return members;
}
