import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { Tiktoken } from "js-tiktoken/lite";
import { BpeCounter, type BpeRanks } from "../../harness/contract/bpe-count.ts";
import { buildScenario } from "./index.ts";

// The contract's o200k counter over the catalogue's own texts (here, not beside the counter: the
// contract is a layer below the scenarios).
const require = createRequire(import.meta.url);
const loaded = require("js-tiktoken/ranks/o200k_base") as BpeRanks | { default: BpeRanks };
const ranks = "default" in loaded ? loaded.default : loaded;
const counter = new BpeCounter(ranks);
const reference = new Tiktoken(ranks);
const referenceCount = (text: string) => reference.encode(text, [], []).length;

function stringsOf(value: unknown, into: Set<string>): Set<string> {
  if (typeof value === "string") into.add(value);
  else if (value !== null && typeof value === "object") for (const member of Object.values(value)) stringsOf(member, into);
  return into;
}

describe("BpeCounter (o200k_base) on catalogue scenarios", () => {
  it("counts exactly what js-tiktoken encodes, for catalogue scenario texts", () => {
    const texts = [...stringsOf(buildScenario("huge-tool-outputs", 1), new Set()), ...stringsOf(buildScenario("basic", 2), new Set())];
    expect(texts.length).toBeGreaterThan(100);
    // Every distinct text up to 100,000 characters in all: the reference encoder is slow.
    let budget = 100_000;
    const mismatches: string[] = [];
    for (const text of texts) {
      if (budget <= 0) break;
      budget -= text.length;
      if (counter.count(text) !== referenceCount(text)) mismatches.push(text.slice(0, 80));
    }
    expect(mismatches).toEqual([]);
  });

});
