import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { Tiktoken } from "js-tiktoken/lite";
import { seededRandom } from "../util/random.ts";
import { BpeCounter, type BpeRanks } from "./bpe-count.ts";

const require = createRequire(import.meta.url);
const loaded = require("js-tiktoken/ranks/o200k_base") as BpeRanks | { default: BpeRanks };
const ranks = "default" in loaded ? loaded.default : loaded;
const counter = new BpeCounter(ranks);
// js-tiktoken's own encoder is the reference the counts must equal, token for token.
const reference = new Tiktoken(ranks);
const referenceCount = (text: string) => reference.encode(text, [], []).length;

function randomText(random: () => number): string {
  const alphabets = ["abcdefghijklmnopqrstuvwxyz ", "ABCXYZ0123456789 .,;:!?'\"()[]{}<>/\\|-_=+*&^%$#@~`", " \t\n\r", "éüßøñçÆ", "日本語中文한국어", "😀🎉👍🏽🚀", "\u0301\u200d\ufeff", "\ud800\udfff"];
  let text = "";
  const length = Math.floor(random() * 120);
  for (let i = 0; i < length; i++) {
    const alphabet = alphabets[Math.floor(random() * alphabets.length)] as string;
    const characters = [...alphabet];
    text += characters[Math.floor(random() * characters.length)];
  }
  return text;
}

describe("BpeCounter (o200k_base)", () => {
  it("counts exactly what js-tiktoken encodes, for edge cases", () => {
    const texts = [
      "",
      "hello world",
      "<|endoftext|> and <|endofprompt|> as plain text",
      "you're I'LL we'Ve",
      "   leading and trailing   ",
      "\n\n\n\r\n  \t",
      "=".repeat(500),
      "aGVsbG8gd29ybGQ=".repeat(40),
      "1234567890123",
      '{"path":"src/index.ts","lines":[1,2,3],"nested":{"a":null}}',
      "lone \ud800 surrogate and \udfff another",
      "combining e\u0301 and zero\u200dwidth",
      "👩‍👩‍👧‍👦 family 🇫🇷 flag",
    ];
    for (const text of texts) expect(counter.count(text), JSON.stringify(text)).toBe(referenceCount(text));
  });

  it("counts exactly what js-tiktoken encodes, for seeded random text in many scripts", () => {
    const random = seededRandom(17);
    for (let i = 0; i < 500; i++) {
      const text = randomText(random);
      expect(counter.count(text), JSON.stringify(text)).toBe(referenceCount(text));
    }
  });

  it("gives the same count again from its piece cache", () => {
    const text = "a sentence whose words are remembered after the first count";
    const first = counter.count(text);
    expect(counter.count(text)).toBe(first);
    expect(counter.count(`${text} ${text}`)).toBe(referenceCount(`${text} ${text}`));
  });

  it("refuses a ranks table that lacks a single byte", () => {
    expect(() => new BpeCounter({ ...ranks, bpe_ranks: "! 0 IQ==" })).toThrow(/no token for byte 0/);
  });
});
