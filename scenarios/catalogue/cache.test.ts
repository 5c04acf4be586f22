import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { scenarioToJson } from "../io.ts";
import { catalogueScenario, scenarioCacheDirectory } from "./cache.ts";
import { buildScenario, listScenarios, UnknownScenarioError } from "./index.ts";

const work = mkdtempSync(join(tmpdir(), "ctxbench-scenario-cache-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let made = 0;
const freshDirectory = () => join(work, `cache-${++made}`);

describe("catalogue scenarios from the disk cache", () => {
  // Two seeds of every entry: a cached scenario must be the scenario built, value for value (no
  // key that JSON drops, no number it changes), and print the same bytes (the pinned digests).
  const directory = freshDirectory();
  it.each(listScenarios().flatMap(({ name }) => [[name, 1] as const, [name, 7] as const]))("%s (seed %i): the miss and the hit are the scenario built", (name, seed) => {
    const built = buildScenario(name, seed);
    const missed = catalogueScenario(name, seed, directory);
    expect(existsSync(join(directory, `${name}.seed-${seed}.json`))).toBe(true);
    const hit = catalogueScenario(name, seed, directory);
    expect(missed).toStrictEqual(built);
    expect(hit).toStrictEqual(built);
    expect(scenarioToJson(hit)).toBe(scenarioToJson(built));
  });

  it("a hit is read from the entry, not built", () => {
    const dir = freshDirectory();
    catalogueScenario("basic", 1, dir);
    const file = join(dir, "basic.seed-1.json");
    const entry = JSON.parse(readFileSync(file, "utf8")) as { description: string };
    writeFileSync(file, JSON.stringify({ ...entry, description: "read from the cache" }));
    expect(catalogueScenario("basic", 1, dir).description).toBe("read from the cache");
  });

  it("a damaged entry, or one of another scenario or seed, is built again and rewritten", () => {
    const dir = freshDirectory();
    const file = join(dir, "merges.seed-2.json");
    catalogueScenario("merges", 2, dir);
    for (const damage of ["{ truncated", JSON.stringify(buildScenario("copies", 2)), JSON.stringify(buildScenario("merges", 3))]) {
      writeFileSync(file, damage);
      expect(catalogueScenario("merges", 2, dir)).toStrictEqual(buildScenario("merges", 2));
      expect(readFileSync(file, "utf8")).toBe(JSON.stringify(buildScenario("merges", 2)));
    }
  });

  it("an unknown name or a bad seed throws as building does, and writes nothing", () => {
    const dir = freshDirectory();
    expect(() => catalogueScenario("no-such-scenario", 1, dir)).toThrow(UnknownScenarioError);
    expect(() => catalogueScenario("basic", 1.5, dir)).toThrow(RangeError);
    expect(existsSync(dir)).toBe(false);
  });

  it("without a cache directory (the sources, or CTXBENCH_CACHE_DIR=off) the scenario is built", () => {
    expect(scenarioCacheDirectory({ CTXBENCH_CACHE_DIR: "off" })).toBeUndefined();
    expect(catalogueScenario("basic", 1, undefined)).toStrictEqual(buildScenario("basic", 1));
  });
});
