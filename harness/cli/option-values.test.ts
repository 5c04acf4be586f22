import { describe, expect, it } from "vitest";
import { UsageError } from "../util/errors.ts";
import { parseName, parseNumber, parseSeed, parseTimerMs, parseWholeNumber, TIMER_MAX_MS } from "./option-values.ts";

const refusal = (act: () => unknown): string => {
  try {
    act();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).not.toContain("\n");
    return (error as Error).message;
  }
  throw new Error("expected a UsageError");
};

describe("command-line values", () => {
  it("parse what they should, from strings and from numbers", () => {
    expect(parseWholeNumber("--turns", "24")).toBe(24);
    expect(parseWholeNumber("--turns", 24)).toBe(24);
    expect(parseWholeNumber("--turns", [" 7 "])).toBe(7);
    expect(parseSeed("--seed", "-3")).toBe(-3);
    expect(parseNumber("--max-time", "1.5e2")).toBe(150);
    expect(parseTimerMs("--timeout", "120000")).toBe(120_000);
    expect(parseTimerMs("--timeout", TIMER_MAX_MS)).toBe(TIMER_MAX_MS);
    expect(parseName("--engine", " lcm ")).toBe("lcm");
  });

  it.each([
    ["a blank seed (yargs makes it 0)", () => parseSeed("--seed", " "), "--seed is blank; give a whole number"],
    ["a seed that is not a whole number", () => parseSeed("--seed", "1.5"), '--seed must be a whole number, got "1.5"'],
    ["a hexadecimal count", () => parseWholeNumber("--turns", "0x10"), '--turns must be a whole number >= 0, got "0x10"'],
    ["a count past its maximum", () => parseWholeNumber("--turns", "100000000", { max: 100_000 }), "--turns must be a whole number from 0 to 100000, got 100000000"],
    ["a count below its minimum", () => parseWholeNumber("--sessions", "0", { min: 1 }), "--sessions must be a whole number >= 1, got 0"],
    ["an option given twice", () => parseWholeNumber("--turns", ["1", "2"]), "--turns is given 2 times; give it once"],
    ["an option without its value", () => parseWholeNumber("--turns", true), "--turns needs a whole number >= 0"],
    ["a timer Node would clamp to 1 ms", () => parseTimerMs("--timeout", "1e10"), "--timeout must be a whole number of milliseconds from 1 to 2147483647"],
    ["a zero timer", () => parseTimerMs("--timeout", "0"), "from 1 to 2147483647"],
    ["a non-numeric number", () => parseNumber("--max-time", "soon"), '--max-time must be a number, got "soon"'],
    ["an infinite number", () => parseNumber("--max-time", "1e999"), '--max-time must be a number, got "1e999"'],
    ["a number not above its floor", () => parseNumber("--max-time", "0", { above: 0 }), "--max-time must be more than 0, got 0"],
    ["a blank engine (it became the compressor)", () => parseName("--engine", "  "), "--engine is blank; give a name"],
  ])("refuse %s in one line naming the option", (_label, act, message) => {
    expect(refusal(act)).toContain(message);
  });
});
