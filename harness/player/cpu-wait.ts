import { readFileSync } from "node:fs";

/**
 * How long a process's main thread has been runnable but waiting for a CPU, in ms, from Linux's
 * /proc/PID/schedstat (its second field, in ns); 0 where the kernel does not say. A bound on a
 * player's run subtracts this, so a machine busy with other work does not make a healthy engine
 * time out: only the time the engine had (running, or waiting on its own hooks) counts.
 */
export function cpuWaitMs(pid: number | undefined): number {
  if (pid === undefined || process.platform !== "linux") return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/schedstat`, "utf8").trim().split(/\s+/);
    const waitNs = Number(fields[1]);
    return Number.isFinite(waitNs) && waitNs >= 0 ? waitNs / 1e6 : 0;
  } catch {
    return 0;
  }
}
