import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { UsageError } from "../util/errors.ts";
import { prepareOutputDirectory, prepareOutputFile, removeCreated, writeFilesAtomically } from "./output-paths.ts";

const dir = mkdtempSync(join(tmpdir(), "ctxbench-out-paths-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, "a-file"), "x");

const refusal = (act: () => unknown): string => {
  try {
    act();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error("expected a UsageError");
};

describe("output directories", () => {
  it("creates a missing directory and its parents, and accepts an existing one", () => {
    const { path, created } = prepareOutputDirectory("--out", "new/deeper/out", dir);
    expect(path).toBe(join(dir, "new/deeper/out"));
    expect(created).toEqual([join(dir, "new"), join(dir, "new/deeper"), join(dir, "new/deeper/out")]);
    expect(readdirSync(path)).toEqual([]); // the write probe is gone
    expect(prepareOutputDirectory("--out", "new/deeper/out", dir).created).toEqual([]);
    removeCreated(created);
    expect(existsSync(join(dir, "new"))).toBe(false);
  });

  it.each([
    ["a file", "a-file", "--out a-file is a file, not a directory"],
    ["a path under a file", "a-file/reports", `--out a-file/reports: ${join(dir, "a-file")} is a file, so nothing can be created under it`],
    ["a path Node's recursive mkdir never returns on", "/proc/self/x", "--out /proc/self/x: cannot create /proc/self/x (ENOENT)"],
    ["a directory nobody may create files in", "/sys/ctxbench-x", "--out /sys/ctxbench-x: cannot create /sys/ctxbench-x"],
  ])("refuses %s in one line naming the option", (_label, path, message) => {
    const text = refusal(() => prepareOutputDirectory("--out", path, dir));
    expect(text).toContain(message);
    expect(text).not.toContain("\n");
  });
});

describe("output files", () => {
  it("creates the file's directory and refuses a directory or a path under a file", () => {
    expect(prepareOutputFile("--trace", "traces/t.jsonl", dir).path).toBe(join(dir, "traces/t.jsonl"));
    expect(existsSync(join(dir, "traces"))).toBe(true);
    expect(refusal(() => prepareOutputFile("--trace", "traces", dir))).toBe("--trace traces is a directory, not a file");
    expect(refusal(() => prepareOutputFile("--trace", "a-file/t.jsonl", dir))).toContain("is a file, so nothing can be created under it");
    expect(refusal(() => prepareOutputFile("--trace", "/proc/self/x", dir))).toContain("--trace /proc/self/x: cannot write in /proc/self");
  });
});

describe("writing a set of files", () => {
  it("puts every file in place, replacing what was there, following a symlink, and leaves no temporary file", () => {
    const out = join(dir, "set");
    mkdirSync(out);
    writeFileSync(join(out, "old.txt"), "before");
    writeFileSync(join(out, "real.txt"), "before");
    symlinkSync(join(out, "real.txt"), join(out, "link.txt"));
    writeFilesAtomically([
      { path: join(out, "old.txt"), data: "after" },
      { path: join(out, "new.bin"), data: new Uint8Array([1, 2, 3]) },
      { path: join(out, "link.txt"), data: "through the link" },
    ]);
    expect(readFileSync(join(out, "old.txt"), "utf8")).toBe("after");
    expect([...readFileSync(join(out, "new.bin"))]).toEqual([1, 2, 3]);
    expect(readFileSync(join(out, "real.txt"), "utf8")).toBe("through the link");
    expect(readdirSync(out).sort()).toEqual(["link.txt", "new.bin", "old.txt", "real.txt"]);
  });

  it("changes nothing when one file of the set cannot be written", () => {
    const out = join(dir, "partial");
    mkdirSync(out);
    writeFileSync(join(out, "a.txt"), "before");
    const text = refusal(() =>
      writeFilesAtomically([
        { path: join(out, "a.txt"), data: "after" },
        { path: join(out, "missing-dir/b.txt"), data: "b" },
      ]),
    );
    expect(text).toBe(`cannot write ${join(out, "missing-dir/b.txt")} (ENOENT)`);
    expect(readFileSync(join(out, "a.txt"), "utf8")).toBe("before");
    expect(readdirSync(out)).toEqual(["a.txt"]);
  });
});
