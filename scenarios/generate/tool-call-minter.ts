import type { Faker } from "@faker-js/faker";
import { toolCallId, type ToolCallIdStyle } from "../../harness/testkit/tool-call-ids.ts";

/** Mints ids in one style; `unique` ids are seeded base-62 and checked against every id minted so far. */
export class ToolCallIdMinter {
  readonly #seen = new Set<string>();

  constructor(
    readonly style: ToolCallIdStyle,
    private readonly faker: Faker,
  ) {}

  /** The id of the call at `index` within one response. */
  next(name: string, args: string, index: number): string {
    return toolCallId(this.style, { name, args, index }, () => {
      let id: string;
      do id = `call_${base62(this.faker, 24)}`;
      while (this.#seen.has(id));
      this.#seen.add(id);
      return id;
    });
  }
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const CHUNK = 6;
const CHUNK_SPAN = 62 ** CHUNK;

/** `length` seeded base-62 characters, six per draw (faster than one faker string per id). */
export function base62(faker: Faker, length: number): string {
  let out = "";
  while (out.length < length) {
    let n = faker.number.int(CHUNK_SPAN - 1);
    for (let i = 0; i < CHUNK && out.length < length; i++) {
      out += BASE62[n % 62];
      n = Math.floor(n / 62);
    }
  }
  return out;
}
