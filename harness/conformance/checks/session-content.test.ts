import { describe, expect, it } from "vitest";
import { SHARED, SHINGLE_WORDS, ShingleIndex } from "./session-content.ts";

const text = (...words: string[]) => words.join(" ");
const eight = (start: number) => Array.from({ length: SHINGLE_WORDS }, (_, k) => `w${start + k}`);

describe("ShingleIndex: who owns a run of eight words", () => {
  for (const [label, make] of [
    ["with its own hash", () => new ShingleIndex()],
    ["when every shingle has the same hash", () => new ShingleIndex(() => 7)],
  ] as const) {
    describe(label, () => {
      it("gives a shingle the session that has it, SHARED once a second session has it too, and nothing to a shingle nobody has", () => {
        const index = make();
        index.own(index.read(text(...eight(0))).ids, "alpha");
        index.own(index.read(text(...eight(100))).ids, "beta");
        index.own(index.read(text(...eight(200))).ids, "alpha");
        index.own(index.read(text(...eight(200))).ids, "beta");
        const at = (words: string[]) => index.ownerAt(index.read(text(...words)).ids, 0);
        expect(at(eight(0))).toBe("alpha");
        expect(at(eight(100))).toBe("beta");
        expect(at(eight(200))).toBe(SHARED);
        expect(at(eight(300))).toBeUndefined();
        // The same words in another order are another shingle.
        expect(at([...eight(0)].reverse())).toBeUndefined();
      });

      it("reads words case-blind and across punctuation, and finds a shingle at any offset", () => {
        const index = make();
        index.own(index.read("One two, THREE four five six seven eight nine").ids, "alpha");
        const { ids } = index.read("zero one two three four five six seven eight");
        expect(index.ownerAt(ids, 0)).toBeUndefined();
        expect(index.ownerAt(ids, 1)).toBe("alpha");
      });
    });
  }
});
