import { describe, expect, it } from "vitest";
import { judgeGoal, type GoalSpec } from "./goals.ts";

const ceiling: GoalSpec = { id: "c", engine: null, description: "a ceiling", limit: 10, unit: "ms" };
const floor: GoalSpec = { id: "f", engine: "lcm", description: "a floor", limit: 100, floor: true, unit: "rows/s" };
const at = (value: number, low: number, high: number) => ({ value, low, high });

describe("judging a goal", () => {
  it("judges an exact figure by its value", () => {
    expect(judgeGoal(ceiling, 10).status).toBe("met");
    expect(judgeGoal(ceiling, 11).status).toBe("missed");
    expect(judgeGoal(ceiling, 3)).toMatchObject({ measured: 3, interval: null });
    expect(judgeGoal(floor, 99).status).toBe("missed");
  });

  it("meets a timed goal only when the whole interval is within the limit", () => {
    expect(judgeGoal(ceiling, at(8, 7, 9.5)).status).toBe("met");
    expect(judgeGoal(ceiling, at(12, 10.5, 13)).status).toBe("missed");
    const across = judgeGoal(ceiling, at(9, 7, 11));
    expect(across.status).toBe("noisy");
    expect(across.reason).toBe("its 95 % interval (7–11 ms) crosses the limit");
    expect(judgeGoal(floor, at(120, 101, 130)).status).toBe("met");
    expect(judgeGoal(floor, at(120, 90, 130)).status).toBe("noisy");
  });

  it("never counts a figure as met when it is unreliable, and says why", () => {
    const goal = judgeGoal(ceiling, at(2, 1.9, 2.1), "the machine was noisy");
    expect(goal).toMatchObject({ status: "noisy", reason: "the machine was noisy", measured: 2, interval: { low: 1.9, high: 2.1 } });
    expect(judgeGoal(ceiling, 2, "the machine was noisy").status).toBe("noisy");
  });

  it("keeps `floor` only on floors, so the JSON stays as small as before", () => {
    expect("floor" in judgeGoal(ceiling, 1)).toBe(false);
    expect(judgeGoal(floor, 200).floor).toBe(true);
  });
});
