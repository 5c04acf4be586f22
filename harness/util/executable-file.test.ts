import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isExecutableFile } from "./executable-file.ts";

describe("isExecutableFile", () => {
  const dir = mkdtempSync(join(tmpdir(), "ctxbench-exec-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("is true only for a regular file with the execute bit", () => {
    const runnable = join(dir, "runnable");
    const plain = join(dir, "plain");
    writeFileSync(runnable, "#!/bin/sh\n");
    writeFileSync(plain, "text");
    chmodSync(runnable, 0o755);
    chmodSync(plain, 0o644);
    expect(isExecutableFile(runnable)).toBe(true);
    expect(isExecutableFile(plain)).toBe(false);
    expect(isExecutableFile(dir)).toBe(false);
    expect(isExecutableFile(join(dir, "missing"))).toBe(false);
  });
});
