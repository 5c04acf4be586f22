import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { countTokensExact } from "../../harness/contract/tokens-exact.ts";
import { buildScenario, listScenarios } from "./index.ts";
import { catalogueTextTokens, scenarioTexts } from "./text-tokens.ts";

const work = mkdtempSync(join(tmpdir(), "ctxbench-text-tokens-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let made = 0;
const freshDirectory = () => join(work, `cache-${++made}`);

describe("a catalogue scenario's texts and their token counts", () => {
  it.each(listScenarios().map(({ name }) => name))("%s: the texts a player walks from the scenario it receives are the ones the parent counted, in the same order", (name) => {
    const built = buildScenario(name, 3);
    const texts = scenarioTexts(built);
    expect(scenarioTexts(JSON.parse(JSON.stringify(built)))).toEqual(texts);
    expect(new Set(texts).size).toBe(texts.length);
    expect(texts.every((text) => text.length >= 64)).toBe(true);
  });

  it("are the counter's own counts, stored once and read back from the cache", () => {
    const directory = freshDirectory();
    const scenario = buildScenario("parallel-tool-calls", 1);
    const texts = scenarioTexts(scenario);
    expect(texts.length).toBeGreaterThan(10);
    const counted = catalogueTextTokens("parallel-tool-calls", 1, scenario, directory)!;
    expect(counted).toEqual(texts.map(countTokensExact));
    // What the file holds is what a later call answers (here made visibly different, as counts of another build would be).
    const file = join(directory, "parallel-tool-calls.seed-1.tokens.json");
    const stored = JSON.parse(readFileSync(file, "utf8")) as { characters: number; counts: number[] };
    writeFileSync(file, JSON.stringify({ ...stored, counts: stored.counts.map((count) => count + 1) }));
    expect(catalogueTextTokens("parallel-tool-calls", 1, scenario, directory)).toEqual(counted.map((count) => count + 1));
  });

  it("are counted again over an entry that is damaged or belongs to other texts", () => {
    const scenario = buildScenario("basic", 2);
    const truth = scenarioTexts(scenario).map(countTokensExact);
    for (const damage of ["{not json", JSON.stringify({ characters: 1, counts: truth }), JSON.stringify({ characters: null, counts: [1] }), JSON.stringify([1, 2, 3])]) {
      const directory = freshDirectory();
      catalogueTextTokens("basic", 2, scenario, directory);
      const file = join(directory, "basic.seed-2.tokens.json");
      writeFileSync(file, damage);
      expect(catalogueTextTokens("basic", 2, scenario, directory)).toEqual(truth);
      expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ counts: truth });
    }
  });

  it("are not counted ahead without a cache to keep them in, nor for a name or seed the catalogue cannot have", () => {
    const scenario = buildScenario("basic", 1);
    expect(catalogueTextTokens("basic", 1, scenario, undefined)).toBeUndefined();
    expect(catalogueTextTokens("../basic", 1, scenario, freshDirectory())).toBeUndefined();
    expect(catalogueTextTokens("basic", 1.5, scenario, freshDirectory())).toBeUndefined();
  });
});
