import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { seededRandom } from "../util/random.ts";
import { BpeCounter, type BpeRanks } from "./bpe-count.ts";
import { decodeRankTable, encodeRankTable } from "./rank-table-file.ts";
import { loadExactCounter } from "./tokens-exact.ts";

const require = createRequire(import.meta.url);
const loaded = require("js-tiktoken/ranks/o200k_base") as BpeRanks | { default: BpeRanks };
const ranks = "default" in loaded ? loaded.default : loaded;
const built = new BpeCounter(ranks);
const work = mkdtempSync(join(tmpdir(), "ctxbench-rank-table-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Texts of many scripts, seeded: a table read back must count every one as the table built does. */
function texts(): string[] {
  const random = seededRandom(17);
  const alphabet = [..."abcdefghijklmnopqrstuvwxyz ABC0123456789 .,;:!?'\"()[]{}<>/\\|-_=+*&^%$#@~`\t\n éüßøñç日本語中文한국어😀🎉👍🏽\u0301\u200d"];
  return Array.from({ length: 400 }, () => Array.from({ length: Math.floor(random() * 200) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(""));
}

describe("the rank table file", () => {
  const encoded = encodeRankTable(ranks.pat_str, built.table);

  it("reads back a table that counts every text as the table built from the ranks", () => {
    const stored = decodeRankTable(encoded);
    expect(stored.patStr).toBe(ranks.pat_str);
    const read = new BpeCounter({ pat_str: stored.patStr, table: stored.table });
    for (const text of texts()) expect(read.count(text), text).toBe(built.count(text));
  });

  it("reads back from a buffer that is not 4-byte aligned (by copying it)", () => {
    const shifted = Buffer.alloc(encoded.length + 1);
    encoded.copy(shifted, 1);
    const stored = decodeRankTable(shifted.subarray(1));
    expect(new BpeCounter({ pat_str: stored.patStr, table: stored.table }).count("hello, world")).toBe(built.count("hello, world"));
  });

  it("refuses a file that is truncated, foreign, of another byte order, or whose table is not of a table's shape", () => {
    const headerLength = encoded.readUInt32LE(8);
    const header = JSON.parse(encoded.toString("utf8", 12, 12 + headerLength)) as Record<string, unknown>;
    const withHeader = (changes: Record<string, unknown>) => {
      const text = Buffer.from(JSON.stringify({ ...header, ...changes }).padEnd(headerLength, " "));
      expect(text.length).toBe(headerLength);
      return Buffer.concat([encoded.subarray(0, 12), text, encoded.subarray(12 + headerLength)]);
    };
    expect(() => decodeRankTable(encoded.subarray(0, encoded.length - 1))).toThrow(/not whole/);
    expect(() => decodeRankTable(Buffer.from("not a table at all"))).toThrow(/not a rank table file/);
    expect(() => decodeRankTable(withHeader({ endianness: header["endianness"] === "LE" ? "BE" : "LE" }))).toThrow(/header/);
    expect(() => decodeRankTable(withHeader({ tokens: "many" }))).toThrow(/header/);
    // A slot naming a token past the table's end: the table refuses it rather than read out of bounds.
    const { table } = decodeRankTable(Buffer.from(encoded));
    const badSlots = { ...table, slots: Int32Array.from(table.slots, (slot, index) => (index === 0 ? table.ranks.length + 5 : slot)) };
    expect(() => new BpeCounter({ pat_str: ranks.pat_str, table: badSlots })).toThrow(/does not hold/);
    const full = { ...table, slots: Int32Array.from(table.slots, (slot) => (slot === 0 ? 1 : slot)) };
    expect(() => new BpeCounter({ pat_str: ranks.pat_str, table: full })).toThrow(/no empty slot/);
    const backwards = { ...table, starts: Int32Array.from(table.starts, (start, index) => (index === 1 ? table.bytes.length : start)) };
    expect(() => new BpeCounter({ pat_str: ranks.pat_str, table: backwards })).toThrow(/backwards/);
  });
});

describe("loadExactCounter", () => {
  it("stores the table on first use and counts the same from it after; a damaged file is built again and rewritten", () => {
    const directory = join(work, "tokenizer", "build-a");
    const file = join(directory, "o200k_base.bin");
    const sample = texts().slice(0, 50);
    const first = loadExactCounter(directory);
    expect(existsSync(file)).toBe(true);
    const written = readFileSync(file);
    expect(written.equals(encodeRankTable(ranks.pat_str, built.table))).toBe(true);
    const second = loadExactCounter(directory);
    for (const text of sample) expect([first.count(text), second.count(text)]).toEqual([built.count(text), built.count(text)]);
    writeFileSync(file, written.subarray(0, 1000));
    const rebuilt = loadExactCounter(directory);
    for (const text of sample) expect(rebuilt.count(text)).toBe(built.count(text));
    expect(readFileSync(file).equals(written)).toBe(true);
  });

  it("without a cache directory builds from the ranks and writes nothing", () => {
    expect(loadExactCounter(undefined).count("plain words")).toBe(built.count("plain words"));
  });
});
