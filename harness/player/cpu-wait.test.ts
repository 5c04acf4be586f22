import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { cpuWaitMs, GroupCpuWait, groupMembers } from "./cpu-wait.ts";

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

describe.runIf(process.platform === "linux")("GroupCpuWait: what a bound subtracts over a run", () => {
  it("counts every thread of a member and keeps an ended member's wait, so the total never goes back", async () => {
    // A member with three busy threads on a machine made busier (five runnable threads on at most
    // the cores there are): its threads wait for a CPU. It then ends; what it waited stays counted.
    const busy = "import threading, time\nend = time.time() + 0.8\ndef spin():\n    while time.time() < end: pass\nts = [threading.Thread(target=spin) for _ in range(3)]\n[t.start() for t in ts]\n[t.join() for t in ts]\n";
    const leader = spawn("sh", ["-c", `python3 -c '${busy}' & wait; sleep 30`], { detached: true, stdio: "ignore" });
    const hogs = [0, 1].map(() => spawn(process.execPath, ["-e", "const end = Date.now() + 1500; while (Date.now() < end);"], { stdio: "ignore" }));
    try {
      const wait = new GroupCpuWait(leader.pid);
      let during = 0;
      for (let i = 0; i < 6; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        during = wait.read();
      }
      expect(during).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 1200));
      expect(groupMembers(leader.pid!).length, "the busy member has ended").toBe(2);
      expect(wait.read()).toBeGreaterThanOrEqual(during);
    } finally {
      process.kill(-leader.pid!, "SIGKILL");
      for (const hog of hogs) hog.kill("SIGKILL");
    }
  });
});

describe.runIf(process.platform === "linux")("GroupCpuWait: how often it looks for the group's members", () => {
  it("scans /proc for the members once per SAMPLE_MS and reads the known members' waits in between", async () => {
    const leader = spawn("sh", ["-c", "sleep 30 & wait"], { detached: true, stdio: "ignore" });
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      let clock = 0;
      const lookups: number[] = [];
      const wait = new GroupCpuWait(leader.pid, {
        clock: () => clock,
        lookUp: (group) => {
          lookups.push(clock);
          return groupMembers(group);
        },
      });
      for (let i = 0; i < 5; i++) wait.read();
      clock = GroupCpuWait.SAMPLE_MS - 1;
      wait.read();
      expect(lookups, "reads within SAMPLE_MS of a lookup reuse its members").toEqual([0]);
      clock = GroupCpuWait.SAMPLE_MS;
      wait.read();
      wait.read();
      expect(lookups).toEqual([0, GroupCpuWait.SAMPLE_MS]);
    } finally {
      process.kill(-leader.pid!, "SIGKILL");
    }
  });
});
