/** A tiktoken ranks file as js-tiktoken ships it. */
export interface BpeRanks {
  pat_str: string;
  special_tokens: Record<string, number>;
  bpe_ranks: string;
}

/**
 * Counts byte-pair-encoding tokens without producing them: the same pieces and the same merges as
 * tiktoken (the lowest-ranked adjacent pair first, the leftmost on a tie), with the ranks looked
 * up by each token's bytes (a piece is a one-byte-per-character string) and each pair's rank
 * remembered between merges, so a piece costs a few lookups instead of re-joining every pair's
 * bytes per merge.
 */
export class BpeCounter {
  readonly #ranks: RankTable;
  readonly #pattern: RegExp;
  // Words repeat far more than texts do: a piece's count is remembered, whatever text it came from.
  readonly #pieces = new Map<string, number>();

  /** From a ranks file, or from the parts of a table built before (`table`, read back from a cache). */
  constructor(ranks: BpeRanks | { pat_str: string; table: RankTableParts }) {
    this.#ranks = "table" in ranks ? RankTable.fromParts(ranks.table) : parseRanks(ranks.bpe_ranks);
    for (let byte = 0; byte < 256; byte++) {
      // Every piece then splits into known tokens, so a piece's count is its number of parts.
      if (this.#ranks.rank(String.fromCharCode(byte), 0, 1) === NONE) throw new Error(`the ranks table has no token for byte ${byte}`);
    }
    this.#pattern = new RegExp(ranks.pat_str, "ug");
  }

  /** The rank table's arrays, to be stored and given back to the constructor (building them is most of its cost). */
  get table(): RankTableParts {
    return this.#ranks.parts();
  }

  /** Tokens of `text` encoded as ordinary text (special-token markers are plain text too). */
  count(text: string): number {
    let count = 0;
    for (const match of text.matchAll(this.#pattern)) {
      const piece = match[0];
      let tokens = this.#pieces.get(piece);
      if (tokens === undefined) {
        tokens = this.#pieceTokens(bytesOf(piece));
        if (this.#pieces.size >= PIECE_CACHE_LIMIT) this.#pieces.clear();
        this.#pieces.set(piece, tokens);
      }
      count += tokens;
    }
    return count;
  }

  #pieceTokens(bytes: string): number {
    if (bytes.length <= 1 || this.#ranks.rank(bytes, 0, bytes.length) !== NONE) return bytes.length === 0 ? 0 : 1;
    return mergeCount(bytes, this.#ranks);
  }
}

// Bytes of the UTF-8 encoding, one character each (lone surrogates become U+FFFD, as TextEncoder does).
const ASCII = /^[\x00-\x7f]*$/;
function bytesOf(piece: string): string {
  return ASCII.test(piece) ? piece : Buffer.from(piece, "utf8").toString("latin1");
}

const PIECE_CACHE_LIMIT = 200_000;
const NONE = Number.POSITIVE_INFINITY;

/** Number of tokens the merges leave of a piece that is not a token itself. */
function mergeCount(bytes: string, ranks: RankTable): number {
  // starts[i] is where part i begins; the last entry is the end of the piece.
  const starts: number[] = [];
  for (let i = 0; i <= bytes.length; i++) starts.push(i);
  // pairRanks[i] is the rank of parts i and i + 1 merged (NONE when that is no token).
  const pairRanks: number[] = [];
  for (let i = 0; i + 2 <= bytes.length; i++) pairRanks.push(ranks.rank(bytes, i, i + 2));
  const rankOf = (part: number): number => (part + 2 < starts.length ? ranks.rank(bytes, starts[part] as number, starts[part + 2] as number) : NONE);
  while (pairRanks.length > 0) {
    let best = 0;
    let bestRank = pairRanks[0] as number;
    for (let i = 1; i < pairRanks.length; i++) {
      const rank = pairRanks[i] as number;
      if (rank < bestRank) {
        bestRank = rank;
        best = i;
      }
    }
    if (bestRank === NONE) break;
    // Parts best and best + 1 become one: its pairs with both neighbours get new ranks.
    starts.splice(best + 1, 1);
    pairRanks.splice(best, 1);
    if (best < pairRanks.length) pairRanks[best] = rankOf(best);
    if (best > 0) pairRanks[best - 1] = rankOf(best - 1);
  }
  return starts.length - 1;
}

const SPACE = 0x20;
const NEWLINE = 0x0a;
const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const SEXTET = new Int16Array(128).fill(-1);
for (let i = 0; i < BASE64.length; i++) SEXTET[BASE64.charCodeAt(i)] = i;

/**
 * The ranks file: lines of `<prefix> <first rank> <token>…`, tokens in base64; a repeated token
 * keeps its last rank. Decoded in one pass into one byte array the rank table indexes
 * (decoding 200,000 tokens one by one costs several times more).
 */
function parseRanks(text: string): RankTable {
  const bytes = new Uint8Array(text.length);
  const ends: number[] = [];
  const tokenRanks: number[] = [];
  let written = 0;
  let bits = 0;
  let held = 0;
  let rank = 0;
  let field = 0;
  let fieldStart = 0;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : NEWLINE;
    if (code === SPACE || code === NEWLINE) {
      if (field === 1) rank = Number.parseInt(text.slice(fieldStart, i), 10);
      else if (field >= 2) {
        ends.push(written);
        tokenRanks.push(rank++);
      }
      bits = 0;
      held = 0;
      field = code === NEWLINE ? 0 : field + 1;
      fieldStart = i + 1;
      continue;
    }
    if (field < 2) continue;
    const sextet = SEXTET[code] ?? -1;
    if (sextet < 0) continue; // padding
    bits = ((bits << 6) | sextet) & 0xffffff;
    held += 6;
    if (held >= 8) {
      held -= 8;
      bytes[written++] = (bits >> held) & 0xff;
    }
  }
  return RankTable.build(bytes.subarray(0, written), ends, tokenRanks);
}

/** The arrays of a rank table, as stored: see RankTable. */
export interface RankTableParts {
  bytes: Uint8Array;
  starts: Int32Array;
  ranks: Int32Array;
  slots: Int32Array;
}

/**
 * Token bytes → rank: an open-addressing hash table over the tokens' bytes laid end to end, looked
 * up by a slice of a one-byte-per-character string without making the slice (a Map keyed by
 * 200,000 token strings cost most of building the counter).
 */
class RankTable {
  readonly #bytes: Uint8Array;
  /** Token k's bytes are #bytes[#starts[k] .. #starts[k + 1]). */
  readonly #starts: Int32Array;
  readonly #ranks: Int32Array;
  /** Token index + 1 per slot; 0 is empty. */
  readonly #slots: Int32Array;
  readonly #mask: number;

  private constructor(parts: RankTableParts) {
    this.#bytes = parts.bytes;
    this.#starts = parts.starts;
    this.#ranks = parts.ranks;
    this.#slots = parts.slots;
    this.#mask = parts.slots.length - 1;
  }

  static build(bytes: Uint8Array, ends: readonly number[], ranks: readonly number[]): RankTable {
    const starts = new Int32Array(ends.length + 1);
    for (let k = 0; k < ends.length; k++) starts[k + 1] = ends[k] as number;
    let size = 1;
    while (size < ends.length * 2) size *= 2;
    const table = new RankTable({ bytes, starts, ranks: Int32Array.from(ranks), slots: new Int32Array(size) });
    table.#fill();
    return table;
  }

  /**
   * A table from stored parts, checked for shape (a damaged or foreign file throws instead of
   * answering wrong ranks: every slot must hold a token whose bytes lie inside the table).
   */
  static fromParts(parts: RankTableParts): RankTable {
    const { bytes, starts, ranks, slots } = parts;
    const tokens = ranks.length;
    const shaped = starts.length === tokens + 1 && starts[0] === 0 && starts[tokens] === bytes.length && slots.length >= tokens && (slots.length & (slots.length - 1)) === 0;
    if (!shaped) throw new Error("the stored rank table is not of a rank table's shape");
    for (let k = 0; k < tokens; k++) if ((starts[k + 1] as number) < (starts[k] as number)) throw new Error("the stored rank table's token bounds go backwards");
    let empty = 0;
    for (let index = 0; index < slots.length; index++) {
      const slot = slots[index] as number;
      if (slot < 0 || slot > tokens) throw new Error("the stored rank table names a token it does not hold");
      if (slot === 0) empty++;
    }
    // A lookup of a missing token ends at an empty slot.
    if (empty === 0) throw new Error("the stored rank table has no empty slot");
    return new RankTable(parts);
  }

  parts(): RankTableParts {
    return { bytes: this.#bytes, starts: this.#starts, ranks: this.#ranks, slots: this.#slots };
  }

  #fill(): void {
    const bytes = this.#bytes;
    const tokens = this.#ranks.length;
    for (let k = 0; k < tokens; k++) {
      const from = this.#starts[k] as number;
      const to = this.#starts[k + 1] as number;
      let hash = FNV_OFFSET;
      for (let i = from; i < to; i++) hash = Math.imul(hash ^ (bytes[i] as number), FNV_PRIME);
      for (let slot = hash & this.#mask; ; slot = (slot + 1) & this.#mask) {
        const held = this.#slots[slot] as number;
        if (held === 0) {
          this.#slots[slot] = k + 1;
          break;
        }
        if (this.#sameBytes(held - 1, from, to)) {
          // A repeated token keeps its last rank.
          this.#ranks[held - 1] = this.#ranks[k] as number;
          break;
        }
      }
    }
  }

  /** The rank of the token whose bytes are `text`'s characters from..to (one byte each), or NONE. */
  rank(text: string, from: number, to: number): number {
    let hash = FNV_OFFSET;
    for (let i = from; i < to; i++) hash = Math.imul(hash ^ text.charCodeAt(i), FNV_PRIME);
    const length = to - from;
    for (let slot = hash & this.#mask; ; slot = (slot + 1) & this.#mask) {
      const held = this.#slots[slot] as number;
      if (held === 0) return NONE;
      const start = this.#starts[held - 1] as number;
      if ((this.#starts[held] as number) - start === length) {
        let same = true;
        for (let i = 0; i < length; i++) {
          if (this.#bytes[start + i] !== text.charCodeAt(from + i)) {
            same = false;
            break;
          }
        }
        if (same) return this.#ranks[held - 1] as number;
      }
    }
  }

  #sameBytes(token: number, from: number, to: number): boolean {
    const start = this.#starts[token] as number;
    if ((this.#starts[token + 1] as number) - start !== to - from) return false;
    for (let i = 0; i < to - from; i++) if (this.#bytes[start + i] !== this.#bytes[from + i]) return false;
    return true;
  }
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
