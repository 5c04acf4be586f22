import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { BENCH_ROLE_FLAG, BENCH_V8_FLAGS, playerArguments } from "./locate.ts";

describe("a player's node arguments", () => {
  it("a playing player gets only its entry; a bench player gets the fixed young generation before it and the bench flag after it", () => {
    const play = playerArguments("play");
    const bench = playerArguments("bench");
    expect(play.some((argument) => argument.includes("semi-space"))).toBe(false);
    expect(bench).toEqual([...BENCH_V8_FLAGS, ...play, BENCH_ROLE_FLAG]);
  });

  it("the flags give node a 16 MB semi-space from the start (V8 would start at 1 MB)", () => {
    const newSpace = (flags: readonly string[]) =>
      Number(spawnSync(process.execPath, [...flags, "-p", 'require("v8").getHeapSpaceStatistics().find((s) => s.space_name === "new_space").space_size'], { encoding: "utf8" }).stdout.trim());
    expect(newSpace(BENCH_V8_FLAGS)).toBe(16 * 1024 * 1024);
    expect(newSpace([])).toBeLessThan(16 * 1024 * 1024);
  });
});
