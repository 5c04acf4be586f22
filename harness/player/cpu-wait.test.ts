import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { cpuWaitMs, groupMembers } from "./cpu-wait.ts";

describe.runIf(process.platform === "linux")("a player group's time waiting for a CPU", () => {
  it("finds the leader of a process group and the children it started, and sums their wait", async () => {
    // A group leader (as a player is) whose child (as a Python bridge is) stays in its group.
    const leader = spawn("sh", ["-c", "sleep 30 & wait"], { detached: true, stdio: "ignore" });
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const members = groupMembers(leader.pid!);
      expect(members).toContain(leader.pid);
      expect(members.length).toBe(2);
      const waited = cpuWaitMs(leader.pid);
      expect(Number.isFinite(waited) && waited >= 0).toBe(true);
      expect(cpuWaitMs(leader.pid)).toBeGreaterThanOrEqual(waited);
    } finally {
      process.kill(-leader.pid!, "SIGKILL");
    }
  });

  it("is 0 for a group that does not exist", () => {
    expect(cpuWaitMs(2 ** 22 + 12345)).toBe(0);
    expect(cpuWaitMs(undefined)).toBe(0);
  });
});
