import { endianness } from "node:os";
import type { RankTableParts } from "./bpe-count.ts";

/**
 * A rank table's arrays in one file, so a process reads them instead of loading js-tiktoken's
 * ranks module and building the table (about 65 ms of every player's first count here). Layout:
 * the magic, a u32 header length, a JSON header (the split pattern, the array lengths, the byte
 * order), padding to 4 bytes, then starts, ranks and slots (int32) and the token bytes.
 */
const MAGIC = "CTXBPE01";

export interface StoredRankTable {
  patStr: string;
  table: RankTableParts;
}

export function encodeRankTable(patStr: string, table: RankTableParts): Buffer {
  const header = Buffer.from(JSON.stringify({ pat_str: patStr, endianness: endianness(), tokens: table.ranks.length, slots: table.slots.length, bytes: table.bytes.length }));
  const prefix = MAGIC.length + 4 + header.length;
  const padding = (4 - (prefix % 4)) % 4;
  const lengthField = Buffer.alloc(4);
  lengthField.writeUInt32LE(header.length + padding);
  const int32 = (array: Int32Array) => Buffer.from(array.buffer, array.byteOffset, array.byteLength);
  return Buffer.concat([Buffer.from(MAGIC, "latin1"), lengthField, header, Buffer.alloc(padding, 0x20), int32(table.starts), int32(table.ranks), int32(table.slots), Buffer.from(table.bytes.buffer, table.bytes.byteOffset, table.bytes.byteLength)]);
}

/** The table in `file`'s bytes; throws on anything but a whole file of this layout and byte order. */
export function decodeRankTable(file: Buffer): StoredRankTable {
  if (file.length < MAGIC.length + 4 || file.toString("latin1", 0, MAGIC.length) !== MAGIC) throw new Error("not a rank table file");
  const headerLength = file.readUInt32LE(MAGIC.length);
  const dataStart = MAGIC.length + 4 + headerLength;
  const header = JSON.parse(file.toString("utf8", MAGIC.length + 4, dataStart)) as { pat_str?: unknown; endianness?: unknown; tokens?: unknown; slots?: unknown; bytes?: unknown };
  const { pat_str, tokens, slots, bytes } = header;
  if (typeof pat_str !== "string" || header.endianness !== endianness() || !isCount(tokens) || !isCount(slots) || !isCount(bytes)) throw new Error("the rank table file's header is not one this build writes");
  if (dataStart % 4 !== 0 || file.length !== dataStart + 4 * (tokens + 1 + tokens + slots) + bytes) throw new Error("the rank table file is not whole");
  // Views share the file's memory when it is aligned, as a buffer of its own is; a copy otherwise.
  const aligned = file.byteOffset % 4 === 0 ? file : Buffer.from(file);
  let offset = dataStart;
  const int32 = (length: number) => {
    const view = new Int32Array(aligned.buffer, aligned.byteOffset + offset, length);
    offset += 4 * length;
    return view;
  };
  const starts = int32(tokens + 1);
  const ranks = int32(tokens);
  const slotArray = int32(slots);
  const tokenBytes = new Uint8Array(aligned.buffer, aligned.byteOffset + offset, bytes);
  return { patStr: pat_str, table: { bytes: tokenBytes, starts, ranks, slots: slotArray } };
}

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
