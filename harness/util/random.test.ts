import { describe, expect, it } from "vitest";
import { seededRandom } from "./random.ts";

describe("the seeded PRNG", () => {
  it("gives reproducible random streams per seed", () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    const c = seededRandom(8);
    const first = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(first);
    expect([c(), c(), c()]).not.toEqual(first);
    for (const v of first) expect(v >= 0 && v < 1).toBe(true);
  });
});
