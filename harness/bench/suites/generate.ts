import { buildScenario } from "../../../scenarios/catalogue/index.ts";
import type { Scenario } from "../../../scenarios/format.ts";
import { generateScenario, type GenerateOptions } from "../../../scenarios/generate/generate.ts";
import { scenarioToJson } from "../../../scenarios/io.ts";
import { countScenarioMessages } from "../../../scenarios/transcript.ts";
import { findScenarioProblem } from "../../../scenarios/validate.ts";
import { summarize, type SampleSummary } from "../stats.ts";

/** The speed goal of scenario generation, in messages a second (user, assistant and tool messages). */
export const GENERATE_GOAL_MESSAGES_PER_SECOND = 100_000;

export interface GenerateCase {
  name: string;
  /** Messages one run produces. */
  messages: number;
  /** Characters of the scenario's JSON. */
  jsonChars: number;
  /** Messages a second of wall time, one value per timed run. */
  messagesPerSecond: SampleSummary;
  /** Messages a second of this process's CPU time (less sensitive to other load on the machine). */
  messagesPerCpuSecond: SampleSummary;
  /** Wall time of one run, ms. */
  runMs: SampleSummary;
}

export interface GenerateBenchResult {
  suite: "generate";
  goalMessagesPerSecond: number;
  cases: GenerateCase[];
  /** Every goal case's median wall-time throughput is at or above the goal. */
  meetsGoal: boolean;
  /** The same, judged on CPU time. */
  meetsGoalOnCpu: boolean;
}

export interface GenerateBenchOptions {
  /** Timed runs per case (default 12), after `warmup` untimed runs (default 2). */
  runs?: number;
  warmup?: number;
}

interface Case {
  name: string;
  /** Judged against the goal; the others show what huge outputs, validation and JSON cost. */
  goal: boolean;
  run(): Scenario;
}

function generatorCase(name: string, goal: boolean, options: GenerateOptions): Case {
  return { name, goal, run: () => generateScenario(options) };
}

const CASES: Case[] = [
  generatorCase("generate 1 session × 2,500 turns, 700 B outputs", true, { turns: 2500, toolOutputBytes: 700, toolStepsPerTurn: [1, 1] }),
  generatorCase("generate 4 sessions × 300 turns, 2 kB outputs, batches of 1–4, deterministic ids", true, {
    sessions: 4,
    turns: 300,
    callsPerStep: [1, 4],
    idStyle: "deterministic",
    interleave: "random",
  }),
  generatorCase("generate 1 session × 200 turns, 40 kB outputs", false, { turns: 200, toolOutputBytes: 40_000 }),
  {
    name: "catalogue long-session: build + validate + JSON",
    goal: false,
    run: () => {
      const scenario = buildScenario("long-session");
      scenarioToJson(scenario);
      return scenario;
    },
  },
];

/** Scenario generation speed: messages a second per case, measured run by run with hrtime. */
export async function runGenerateBench(options: GenerateBenchOptions = {}): Promise<GenerateBenchResult> {
  const runs = options.runs ?? 12;
  const warmup = options.warmup ?? 2;
  const cases: GenerateCase[] = [];
  for (const c of CASES) {
    let messages = 0;
    for (let i = 0; i < warmup; i++) messages = countScenarioMessages(c.run());
    const rates: number[] = [];
    const cpuRates: number[] = [];
    const times: number[] = [];
    let jsonChars = 0;
    for (let i = 0; i < runs; i++) {
      const cpuStart = process.cpuUsage();
      const start = process.hrtime.bigint();
      const scenario = c.run();
      const ns = Number(process.hrtime.bigint() - start);
      const cpu = process.cpuUsage(cpuStart);
      messages = countScenarioMessages(scenario);
      if (i === 0) {
        if (findScenarioProblem(scenario) !== null) throw new Error(`${c.name}: generated an invalid scenario`);
        jsonChars = scenarioToJson(scenario).length;
      }
      rates.push(messages / (ns / 1e9));
      cpuRates.push(messages / Math.max(1e-6, (cpu.user + cpu.system) / 1e6));
      times.push(ns / 1e6);
      // Let the event loop breathe between runs (timers, GC finalisers).
      await new Promise((resolve) => setImmediate(resolve));
    }
    cases.push({ name: c.name, messages, jsonChars, messagesPerSecond: summarize(rates), messagesPerCpuSecond: summarize(cpuRates), runMs: summarize(times) });
  }
  const goalCases = cases.filter((_, i) => CASES[i]!.goal);
  return {
    suite: "generate",
    goalMessagesPerSecond: GENERATE_GOAL_MESSAGES_PER_SECOND,
    cases,
    meetsGoal: goalCases.every((c) => c.messagesPerSecond.median >= GENERATE_GOAL_MESSAGES_PER_SECOND),
    meetsGoalOnCpu: goalCases.every((c) => c.messagesPerCpuSecond.median >= GENERATE_GOAL_MESSAGES_PER_SECOND),
  };
}
