import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildCacheDirectory, cacheRoot, currentBuildId, readCacheFile, writeCacheFile } from "./build-cache.ts";

const work = mkdtempSync(join(tmpdir(), "ctxbench-build-cache-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let made = 0;
const fresh = () => {
  const dir = join(work, `case-${++made}`);
  mkdirSync(dir);
  return dir;
};

describe("the build id", () => {
  it("is read from the build's build-id.json; a missing, malformed or odd one is no id", () => {
    const dir = fresh();
    const file = (text: string) => {
      writeFileSync(join(dir, "build-id.json"), text);
      return join(dir, "build-id.json");
    };
    expect(currentBuildId(join(dir, "none.json"))).toBeUndefined();
    expect(currentBuildId(file('{"id":"0123456789abcdef0123456789abcdef"}\n'))).toBe("0123456789abcdef0123456789abcdef");
    expect(currentBuildId(file("{"))).toBeUndefined();
    expect(currentBuildId(file('{"id":"../../etc"}'))).toBeUndefined();
    expect(currentBuildId(file('{"id":42}'))).toBeUndefined();
  });

  it("is none when running from the sources, so nothing is cached there", () => {
    expect(currentBuildId()).toBeUndefined();
    expect(buildCacheDirectory("scenarios", { CTXBENCH_CACHE_DIR: work })).toBeUndefined();
  });
});

describe("the cache root", () => {
  it("is CTXBENCH_CACHE_DIR, off turns it off, else $XDG_CACHE_HOME/ctxbench, else ~/.cache/ctxbench", () => {
    expect(cacheRoot({ CTXBENCH_CACHE_DIR: "/somewhere", XDG_CACHE_HOME: "/xdg" })).toBe("/somewhere");
    expect(cacheRoot({ CTXBENCH_CACHE_DIR: "off", XDG_CACHE_HOME: "/xdg" })).toBeUndefined();
    expect(cacheRoot({ XDG_CACHE_HOME: "/xdg" })).toBe("/xdg/ctxbench");
    // The XDG spec ignores a relative path.
    expect(cacheRoot({ XDG_CACHE_HOME: "relative" })).toBe(join(homedir(), ".cache", "ctxbench"));
    expect(cacheRoot({})).toBe(join(homedir(), ".cache", "ctxbench"));
  });

  it("keys a kind's entries by build", () => {
    expect(buildCacheDirectory("scenarios", { CTXBENCH_CACHE_DIR: "/c" }, "abcdef0123456789")).toBe("/c/scenarios/abcdef0123456789");
    expect(buildCacheDirectory("scenarios", { CTXBENCH_CACHE_DIR: "off" }, "abcdef0123456789")).toBeUndefined();
  });
});

describe("entries", () => {
  it("are written whole under their name, with no temporary file left, and read back", () => {
    const dir = join(fresh(), "kind", "build-a");
    expect(readCacheFile(dir, "entry.json")).toBeUndefined();
    writeCacheFile(dir, "entry.json", "first");
    writeCacheFile(dir, "entry.json", "second");
    expect(readCacheFile(dir, "entry.json")).toBe("second");
    expect(readdirSync(dir)).toEqual(["entry.json"]);
  });

  it("a write that cannot happen (a file where the directory should be) is a miss, not an error", () => {
    const root = fresh();
    writeFileSync(join(root, "kind"), "a file");
    expect(() => writeCacheFile(join(root, "kind", "build-a"), "entry.json", "text")).not.toThrow();
    expect(readCacheFile(join(root, "kind", "build-a"), "entry.json")).toBeUndefined();
  });

  it("the first entry of a build keeps the three most recent other builds of its kind and removes the rest", () => {
    const kind = join(fresh(), "scenarios");
    const build = (n: number) => `${n}`.repeat(16);
    for (let n = 1; n <= 5; n++) {
      writeCacheFile(join(kind, build(n)), "entry.json", `build ${n}`);
      // build 1 the oldest, build 5 the newest
      utimesSync(join(kind, build(n)), 1_000_000 + n, 1_000_000 + n);
    }
    // When build 5 came, build 1 was the fourth other build.
    expect(readdirSync(kind).sort()).toEqual([2, 3, 4, 5].map(build));
    writeCacheFile(join(kind, build(6)), "entry.json", "build 6");
    expect(readdirSync(kind).sort()).toEqual([3, 4, 5, 6].map(build));
    // A later entry of the same build prunes nothing.
    writeCacheFile(join(kind, build(3)), "other.json", "build 3");
    expect(readdirSync(kind).sort()).toEqual([3, 4, 5, 6].map(build));
  });

  it("pruning never removes a directory that is not named as a build, nor prunes beside one that is not", () => {
    const kind = join(fresh(), "scenarios");
    const old = ["1111111111111111", "2222222222222222", "3333333333333333", "4444444444444444"];
    for (const name of [...old, "notes", "my-project"]) mkdirSync(join(kind, name), { recursive: true });
    // A directory not named as a build (a caller's mistake, or a root set to /tmp): nothing beside it goes.
    writeCacheFile(join(kind, "scratch"), "entry.json", "text");
    expect(readdirSync(kind).sort()).toEqual([...old, "my-project", "notes", "scratch"].sort());
    writeCacheFile(join(kind, "5555555555555555"), "entry.json", "text");
    expect(readdirSync(kind)).toEqual(expect.arrayContaining(["my-project", "notes", "scratch", "5555555555555555"]));
    expect(readdirSync(kind).filter((name) => /^\d{16}$/.test(name))).toHaveLength(4);
  });
});
