import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { scratchRoot } from "./scratch-root.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("scratchRoot", () => {
  it("takes the RAM-backed directory when it is a writable directory with room", () => {
    const dir = mkdtempSync(join(tmpdir(), "ctxbench-scratch-"));
    dirs.push(dir);
    expect(scratchRoot({ ramDirectory: dir, minFreeBytes: 1 })).toBe(dir);
  });
  it("falls back to the temp directory when the RAM directory is too small, missing or not a directory", () => {
    const dir = mkdtempSync(join(tmpdir(), "ctxbench-scratch-"));
    dirs.push(dir);
    expect(scratchRoot({ ramDirectory: dir, minFreeBytes: Number.MAX_SAFE_INTEGER })).toBe(tmpdir());
    expect(scratchRoot({ ramDirectory: join(dir, "missing") })).toBe(tmpdir());
    expect(scratchRoot({ ramDirectory: "/dev/null" })).toBe(tmpdir());
  });
});
