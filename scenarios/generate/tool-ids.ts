import { createHash } from "node:crypto";
import type { Faker } from "@faker-js/faker";

/**
 * How the model names its tool calls:
 * - `unique`: provider-minted ids, never repeated (`call_` + 24 alphanumerics);
 * - `deterministic`: `call_<12hex>` from sha256 of `name:arguments:index`, so identical calls repeat ids;
 * - `constant`: one id for every call (a llama.cpp-style server);
 * - `per-response`: `call_0`, `call_1`, … restarting each response, so ids recur across turns.
 */
export type ToolCallIdStyle = "unique" | "deterministic" | "constant" | "per-response";
export const TOOL_CALL_ID_STYLES: readonly ToolCallIdStyle[] = ["unique", "deterministic", "constant", "per-response"];

export const CONSTANT_TOOL_CALL_ID = "call_0";

/** The id a host derives when the API omits one: identical calls give identical ids. */
export function deterministicCallId(name: string, args: string, index: number): string {
  return `call_${createHash("sha256").update(`${name}:${args}:${index}`).digest("hex").slice(0, 12)}`;
}

/** Mints ids in one style; `unique` ids are checked against every id minted so far. */
export class ToolCallIdMinter {
  readonly #seen = new Set<string>();

  constructor(
    readonly style: ToolCallIdStyle,
    private readonly faker: Faker,
  ) {}

  /** The id of the call at `index` within one response. */
  next(name: string, args: string, index: number): string {
    switch (this.style) {
      case "deterministic":
        return deterministicCallId(name, args, index);
      case "constant":
        return CONSTANT_TOOL_CALL_ID;
      case "per-response":
        return `call_${index}`;
      case "unique": {
        let id: string;
        do id = `call_${base62(this.faker, 24)}`;
        while (this.#seen.has(id));
        this.#seen.add(id);
        return id;
      }
    }
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
