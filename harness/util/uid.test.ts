import { describe, expect, it } from "vitest";
import { createSeededMinter, UID_PATTERN, uidFor } from "./uid.ts";

describe("deterministic uids", () => {
  it("names one uid per label, in the store's uid shape", () => {
    expect(uidFor("s1:0:user")).toBe(uidFor("s1:0:user"));
    expect(uidFor("s1:0:user")).not.toBe(uidFor("s1:1:user"));
    expect(uidFor("anything")).toMatch(UID_PATTERN);
  });

  it("draws the same sequence from the same seed", () => {
    const [a, b, c] = [createSeededMinter(4), createSeededMinter(4), createSeededMinter(5)];
    const first = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(first);
    expect(c()).not.toBe(first[0]);
    for (const uid of first) expect(uid).toMatch(UID_PATTERN);
    expect(new Set(first).size).toBe(3);
  });
});
