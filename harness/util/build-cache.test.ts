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
    const builds = ["b1", "b2", "b3", "b4", "b5"];
    builds.forEach((build, index) => {
      writeCacheFile(join(kind, build), "entry.json", build);
      // b1 the oldest, b5 the newest
      utimesSync(join(kind, build), 1_000_000 + index, 1_000_000 + index);
    });
    // When b5 came, b1 was the fourth other build.
    expect(readdirSync(kind).sort()).toEqual(["b2", "b3", "b4", "b5"]);
    writeCacheFile(join(kind, "b6"), "entry.json", "b6");
    expect(readdirSync(kind).sort()).toEqual(["b3", "b4", "b5", "b6"]);
    // A later entry of the same build prunes nothing.
    writeCacheFile(join(kind, "b3"), "other.json", "b3");
    expect(readdirSync(kind).sort()).toEqual(["b3", "b4", "b5", "b6"]);
  });
});
