import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { processAlive } from "./process-alive.ts";

describe("processAlive", () => {
  it("is true for a running process and false once one has ended and been reaped", () => {
    expect(processAlive(process.pid)).toBe(true);
    const ended = spawnSync(process.execPath, ["-e", "0"]);
    expect(ended.pid).toBeGreaterThan(0);
    expect(processAlive(ended.pid!)).toBe(false);
  });
});
