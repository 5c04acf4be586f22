import { mkdirSync, mkdtempSync, renameSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { builtFromCurrentSources, sourceFiles, STAMP } from "../bin/built.mjs";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

const past = new Date(Date.now() - 60_000);

/** A checkout with two sources, a test, a Python cache and a build stamped now. */
function checkout(): string {
  const root = mkdtempSync(join(tmpdir(), "ctxbench-built-"));
  roots.push(root);
  for (const [path, text] of [["harness/a.ts", "a"], ["harness/deep/b.ts", "b"], ["harness/a.test.ts", "t"], ["bridge/x.py", "x"], ["package.json", "{}"], ["tsconfig.json", "{}"], ["tsconfig.build.json", "{}"]] as const) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
    utimesSync(join(root, path), past, past);
  }
  mkdirSync(join(root, "dist"));
  writeFileSync(join(root, "dist", STAMP), JSON.stringify({ startedMs: Date.now() - 1000, roots: ["harness", "bridge"], files: sourceFiles(root, ["harness", "bridge"]) }));
  return root;
}

describe("whether a checkout's dist/ is a build of its sources as they are", () => {
  it("lists the sources a build reads: no tests, no caches", () => {
    const root = checkout();
    mkdirSync(join(root, "bridge", "__pycache__"));
    writeFileSync(join(root, "bridge", "__pycache__", "x.pyc"), "");
    expect(sourceFiles(root, ["harness", "bridge"])).toEqual(["bridge/x.py", "harness/a.ts", "harness/deep/b.ts"]);
  });

  it("is current when nothing changed since the build started, whatever a test or a cache does", () => {
    const root = checkout();
    expect(builtFromCurrentSources(root)).toBe(true);
    writeFileSync(join(root, "harness", "a.test.ts"), "edited");
    mkdirSync(join(root, "bridge", "__pycache__"));
    writeFileSync(join(root, "bridge", "__pycache__", "x.pyc"), "");
    expect(builtFromCurrentSources(root)).toBe(true);
  });

  it("is out of date when a source or a build input changed, or a source was added, removed or renamed", () => {
    const edited = checkout();
    writeFileSync(join(edited, "harness", "deep", "b.ts"), "edited");
    expect(builtFromCurrentSources(edited)).toBe(false);
    const config = checkout();
    writeFileSync(join(config, "tsconfig.build.json"), "{ }");
    expect(builtFromCurrentSources(config)).toBe(false);
    const added = checkout();
    writeFileSync(join(added, "harness", "c.ts"), "c");
    utimesSync(join(added, "harness", "c.ts"), past, past);
    expect(builtFromCurrentSources(added)).toBe(false);
    const removed = checkout();
    rmSync(join(removed, "harness", "a.ts"));
    expect(builtFromCurrentSources(removed)).toBe(false);
    const renamed = checkout();
    renameSync(join(renamed, "harness", "a.ts"), join(renamed, "harness", "z.ts")); // keeps its old mtime
    expect(builtFromCurrentSources(renamed)).toBe(false);
  });

  it("is out of date without a stamp, with a broken one, or with no build at all", () => {
    const unstamped = checkout();
    rmSync(join(unstamped, "dist", STAMP));
    expect(builtFromCurrentSources(unstamped)).toBe(false);
    const broken = checkout();
    writeFileSync(join(broken, "dist", STAMP), "{");
    expect(builtFromCurrentSources(broken)).toBe(false);
    const unbuilt = checkout();
    rmSync(join(unbuilt, "dist"), { recursive: true });
    expect(builtFromCurrentSources(unbuilt)).toBe(false);
  });
});
