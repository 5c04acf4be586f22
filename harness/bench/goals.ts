/**
 * Goals: a measured figure against the bound an issue or the spec sets for it. A timed figure is
 * judged by its whole interval, so a goal is met only when the measurement says so beyond its
 * noise; a noisy run or an interval across the bound is "noisy", never "met".
 */
import { boolean, named, nullable, number, object, oneOf, optional, string, type Infer } from "../util/schema.ts";
import type { Estimate } from "./stats.ts";

export const GOAL_STATUSES = ["met", "missed", "noisy"] as const;
export type GoalStatus = (typeof GOAL_STATUSES)[number];

const intervalSchema = object({ low: number(), high: number() });
export type Interval = Infer<typeof intervalSchema>;

export const goalSchema = named(
  "Goal",
  object({
    id: string({ minLength: 1 }),
    /** The engine whose figure this is; null for the harness's own figures (host, store). */
    engine: nullable(string({ minLength: 1 })),
    description: string(),
    /** The bound: a ceiling (met when measured ≤ limit) unless `floor` says otherwise. */
    limit: number(),
    /** True for a floor: met when measured ≥ limit (throughputs). Absent means a ceiling. */
    floor: optional(boolean()),
    measured: number(),
    /** The 95 % interval of a timed figure; null for counts and other exact figures. */
    interval: nullable(intervalSchema),
    unit: string(),
    status: oneOf(GOAL_STATUSES),
    /** Why the goal is noisy (absent otherwise). */
    reason: optional(string()),
  }),
);
/** A measured value against the goal the spec or an issue sets for it. */
export type Goal = Infer<typeof goalSchema>;

export type GoalSpec = Pick<Goal, "id" | "engine" | "description" | "limit" | "floor" | "unit">;

/** What a noisy goal tells the reader to do. */
export const RERUN_ADVICE = "noisy — rerun on a quiet machine";

/** "≥" for a floor, "≤" for a ceiling: how a goal's limit reads in every report. */
export const goalBound = (goal: Pick<Goal, "floor">): "≥" | "≤" => (goal.floor === true ? "≥" : "≤");

/**
 * Judge a figure against its goal. `figure` is exact (a number) or timed (an estimate with its
 * interval); `unreliable` is the reason the figure cannot be trusted (see reliability.ts), if any.
 */
export function judgeGoal(spec: GoalSpec, figure: number | Estimate, unreliable: string | null = null): Goal {
  const measured = typeof figure === "number" ? figure : figure.value;
  const interval = typeof figure === "number" ? null : { low: figure.low, high: figure.high };
  const base = { ...spec, measured, interval };
  if (spec.floor !== true) delete base.floor;
  if (unreliable !== null) return { ...base, status: "noisy", reason: unreliable };
  const within = (value: number) => (spec.floor === true ? value >= spec.limit : value <= spec.limit);
  if (interval === null) return { ...base, status: within(measured) ? "met" : "missed" };
  const [best, worst] = spec.floor === true ? [interval.high, interval.low] : [interval.low, interval.high];
  if (within(worst)) return { ...base, status: "met" };
  if (!within(best)) return { ...base, status: "missed" };
  return { ...base, status: "noisy", reason: `its 95 % interval (${short(interval.low)}–${short(interval.high)}${spec.unit === "×" ? "×" : spec.unit ? ` ${spec.unit}` : ""}) crosses the limit` };
}

const short = (value: number) => Number(value.toPrecision(4)).toString();
