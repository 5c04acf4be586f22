import { readdirSync, readFileSync } from "node:fs";

/**
 * How long the processes of a player's process group (the player and the engine's own children,
 * such as a Python bridge) have been runnable but waiting for a CPU, in ms, from Linux's
 * /proc/PID/schedstat (its second field, in ns); 0 where the kernel does not say. A bound on a
 * player's run subtracts this, so a machine busy with other work does not make a healthy engine
 * time out: only the time the engine had (running, or waiting on its own hooks) counts. A
 * process that ends takes its share with it, which only makes the bound stricter.
 */
export function cpuWaitMs(group: number | undefined): number {
  if (group === undefined || process.platform !== "linux") return 0;
  let totalNs = 0;
  for (const pid of groupMembers(group)) {
    try {
      const waitNs = Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").trim().split(/\s+/)[1]);
      if (Number.isFinite(waitNs) && waitNs >= 0) totalNs += waitNs;
    } catch {
      // Gone since the listing.
    }
  }
  return totalNs / 1e6;
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
