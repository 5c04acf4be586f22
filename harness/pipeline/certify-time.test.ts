import { describe, expect, it } from "vitest";
import { certifyGoalMs } from "./certify-time.ts";

describe("the goal a timed certification is held to", () => {
  it("is issue 17's for each bundled engine, the bridge's for a Python plugin and 30 s for any other", () => {
    expect(certifyGoalMs({ name: "truncate", bundled: true, language: "typescript" })).toBe(2_000);
    expect(certifyGoalMs({ name: "compressor", bundled: true, language: "typescript" })).toBe(4_000);
    expect(certifyGoalMs({ name: "lcm", bundled: true, language: "typescript" })).toBe(6_000);
    // A plugin that takes a bundled engine's name is not held to that engine's goal.
    expect(certifyGoalMs({ name: "truncate", bundled: false, language: "typescript" })).toBe(30_000);
    expect(certifyGoalMs({ name: "recall", bundled: false, language: "python" })).toBe(60_000);
    expect(certifyGoalMs({ name: "mine", bundled: false, language: "javascript" })).toBe(30_000);
  });
});
