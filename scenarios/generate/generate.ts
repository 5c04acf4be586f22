import type { Faker } from "@faker-js/faker";
import type { ContentPart } from "../../harness/contract/types.ts";
import { UsageError } from "../../harness/util/errors.ts";
import { describeBytes, MAX_INPUT_BYTES } from "../../harness/util/input-limits.ts";
import { SCENARIO_FORMAT_VERSION, type AssistantStep, type Canary, type FakeSecret, type Scenario, type ScenarioSession, type ScenarioTurn, type ScheduleStep } from "../format.ts";
import { CodingWorkspace, fakePngDataUrl } from "./coding-tools.ts";
import { seededFaker } from "./faker.ts";
import { CANARY_TOPICS, CanaryMint, canarySentence, fakeSecretValue, SECRET_KINDS, secretLine } from "./planting.ts";
import { interleave, type InterleaveMode } from "./schedule.ts";
import type { ToolCallIdStyle } from "../../harness/testkit/tool-call-ids.ts";
import { ToolCallIdMinter } from "./tool-call-minter.ts";

export const DEFAULT_MODEL = "sim/coder-64k";
export const DEFAULT_CONTEXT_LENGTH = 64_000;

export interface GenerateOptions {
  name?: string;
  description?: string;
  rules?: string[];
  seed?: number;
  model?: string;
  contextLength?: number;
  /** Number of sessions (default 1), ids `s1`, `s2`, … */
  sessions?: number;
  /** Turns per session (default 24). */
  turns?: number;
  /** Tool-calling responses per turn before the final answer, inclusive range (default [1, 3]). */
  toolStepsPerTurn?: [number, number];
  /** Calls per tool-calling response; above 1 they form a parallel batch (default [1, 1]). */
  callsPerStep?: [number, number];
  /** Mean size of a tool output in characters; each is 0.5–1.5× this (default 2000). */
  toolOutputBytes?: number;
  /** One style for all sessions, or one per session, cycled (default "unique"). */
  idStyle?: ToolCallIdStyle | ToolCallIdStyle[];
  /** Chance that a call re-issues an earlier call verbatim (default 0.1). */
  repeatChance?: number;
  /** Chance that a call is a screenshot with an image part (default 0). */
  screenshotChance?: number;
  /** Chance that a user message carries an image part (default 0). */
  imageTurnChance?: number;
  canariesPerSession?: number;
  secretsPerSession?: number;
  interleave?: InterleaveMode;
}

/** What generation produced, plus the faker so catalogue builders keep drawing from the same stream. */
export interface Generated {
  scenario: Scenario;
  faker: Faker;
}

/**
 * Bounds on one generated scenario. Past them a request is refused by name (exit 2) instead of
 * running for minutes and aborting out of memory; the largest scenario stays a file `run` reads.
 */
export const GENERATE_LIMITS = {
  turnsPerSession: 100_000,
  sessions: 1_000,
  toolStepsPerTurn: 64,
  callsPerStep: 64,
  toolOutputBytes: 1_000_000,
  scenarioBytes: MAX_INPUT_BYTES,
} as const;

/** Options past GENERATE_LIMITS; the message names the option and the bound. */
export class GenerateLimitError extends UsageError {}

/** Bytes a screenshot call or an image turn adds (its data URL and framing), at most. */
const IMAGE_BYTES = 1_800;

/** An upper-end estimate of the scenario's JSON size: each call's output and framing, each turn's text and final step. */
export function estimateScenarioBytes(options: GenerateOptions): number {
  const [minSteps, maxSteps] = options.toolStepsPerTurn ?? [1, 3];
  const [minCalls, maxCalls] = options.callsPerStep ?? [1, 1];
  const perCall = (options.toolOutputBytes ?? 2000) + 200 + (options.screenshotChance ?? 0) * IMAGE_BYTES;
  const perTurn = ((minSteps + maxSteps) / 2) * ((minCalls + maxCalls) / 2) * perCall + 800 + (options.imageTurnChance ?? 0) * IMAGE_BYTES;
  return (options.sessions ?? 1) * (options.turns ?? 24) * perTurn;
}

function assertWithinLimits(options: GenerateOptions): void {
  const bounded: Array<[string, number | undefined, number]> = [
    ["turns per session", options.turns, GENERATE_LIMITS.turnsPerSession],
    ["sessions", options.sessions, GENERATE_LIMITS.sessions],
    ["tool steps per turn", options.toolStepsPerTurn?.[1], GENERATE_LIMITS.toolStepsPerTurn],
    ["calls per step", options.callsPerStep?.[1], GENERATE_LIMITS.callsPerStep],
    ["mean tool output bytes", options.toolOutputBytes, GENERATE_LIMITS.toolOutputBytes],
  ];
  for (const [what, value, limit] of bounded) {
    if (value !== undefined && value > limit) throw new GenerateLimitError(`${what} must be at most ${limit}, got ${value}`);
  }
  const bytes = estimateScenarioBytes(options);
  if (bytes > GENERATE_LIMITS.scenarioBytes) {
    throw new GenerateLimitError(
      `the scenario would be an estimated ${describeBytes(bytes)} of JSON (${options.sessions ?? 1} session(s) × ${options.turns ?? 24} turns); the generator makes at most ${describeBytes(GENERATE_LIMITS.scenarioBytes)}: ask for fewer turns, sessions, calls or smaller tool outputs`,
    );
  }
}

/** A seeded coding-agent scenario; the same options give the same bytes. */
export function generateScenario(options: GenerateOptions = {}): Scenario {
  return generateWithFaker(options).scenario;
}

export function generateWithFaker(options: GenerateOptions = {}): Generated {
  assertWithinLimits(options);
  const seed = options.seed ?? 1;
  const faker = seededFaker(seed);
  const sessionCount = options.sessions ?? 1;
  const styles = Array.isArray(options.idStyle) ? options.idStyle : [options.idStyle ?? "unique"];
  const mint = new CanaryMint(faker);
  const builds: SessionBuild[] = [];
  for (let i = 0; i < sessionCount; i++) builds.push(generateSession(faker, `s${i + 1}`, styles[i % styles.length]!, options, mint));
  const sessions = builds.map((b) => b.session);
  const scenario = assembleScenario(
    {
      name: options.name ?? "generated",
      description: options.description ?? `Generated: ${sessionCount} session(s) of ${options.turns ?? 24} coding turns.`,
      rules: options.rules ?? [],
      seed,
      model: options.model ?? DEFAULT_MODEL,
      contextLength: options.contextLength ?? DEFAULT_CONTEXT_LENGTH,
    },
    builds,
    interleave(faker, sessions, options.interleave ?? "round-robin"),
  );
  return { scenario, faker };
}

export interface ScenarioMeta {
  name: string;
  description: string;
  rules: string[];
  seed: number;
  model?: string;
  contextLength?: number;
}

/** A scenario from built sessions and a schedule, in the canonical key order. */
export function assembleScenario(meta: ScenarioMeta, builds: readonly SessionBuild[], schedule: ScheduleStep[]): Scenario {
  return {
    formatVersion: SCENARIO_FORMAT_VERSION,
    name: meta.name,
    description: meta.description,
    seed: meta.seed,
    rules: meta.rules,
    model: meta.model ?? DEFAULT_MODEL,
    context_length: meta.contextLength ?? DEFAULT_CONTEXT_LENGTH,
    sessions: builds.map((b) => b.session),
    schedule,
    canaries: builds.flatMap((b) => b.canaries),
    secrets: builds.flatMap((b) => b.secrets),
  };
}

const REQUESTS: Array<(w: CodingWorkspace, file: string) => string> = [
  (w, file) => `Can you ${w.pick("verbs")} the ${w.pick("nouns")} handling in ${file}?`,
  (w, file) => `The build broke after the ${w.pick("nouns")} change; please find out why ${file} fails.`,
  (w, file) => `Add tests for ${file} covering the ${w.pick("adjectives")} ${w.pick("nouns")} case.`,
  (w, file) => `Refactor ${file} so the ${w.pick("nouns")} logic is easier to follow.`,
  (w, file) => `Why does ${file} ${w.pick("verbs")} the ${w.pick("nouns")} twice? Fix it if it's a bug.`,
];

export interface SessionBuild {
  session: ScenarioSession;
  canaries: Canary[];
  secrets: FakeSecret[];
}

/** One session of coding turns with its planted canaries and secrets. */
export function generateSession(faker: Faker, id: string, style: ToolCallIdStyle, options: GenerateOptions, mint: CanaryMint): SessionBuild {
  const workspace = new CodingWorkspace(faker);
  const ids = new ToolCallIdMinter(style, faker);
  const turnCount = options.turns ?? 24;
  const [minSteps, maxSteps] = options.toolStepsPerTurn ?? [1, 3];
  const [minCalls, maxCalls] = options.callsPerStep ?? [1, 1];
  const meanBytes = options.toolOutputBytes ?? 2000;
  const turns: ScenarioTurn[] = [];
  for (let t = 0; t < turnCount; t++) {
    const file = faker.helpers.arrayElement(workspace.files);
    const text = faker.helpers.arrayElement(REQUESTS)(workspace, file);
    const user: string | ContentPart[] =
      faker.number.float() < (options.imageTurnChance ?? 0)
        ? [{ type: "text", text: `${text} See the attached screenshot.` }, { type: "image_url", image_url: { url: fakePngDataUrl(faker, 1600) } }]
        : text;
    const steps: AssistantStep[] = [];
    const stepCount = faker.number.int({ min: minSteps, max: maxSteps });
    for (let s = 0; s < stepCount; s++) {
      const callCount = faker.number.int({ min: minCalls, max: maxCalls });
      const toolCalls = [];
      for (let c = 0; c < callCount; c++) {
        const planned = workspace.call(Math.round(meanBytes * (0.5 + faker.number.float())), {
          repeatChance: options.repeatChance ?? 0.1,
          screenshotChance: options.screenshotChance ?? 0,
        });
        toolCalls.push({ id: ids.next(planned.name, planned.arguments, c), ...planned });
      }
      steps.push({ content: s === 0 ? null : `Checking ${file} next.`, toolCalls });
    }
    steps.push({ content: `Done: ${workspace.pick("phrases")}` });
    turns.push({ user, steps });
  }
  const session: ScenarioSession = { id, systemPrompt: systemPrompt(faker, id), turns };
  return { session, ...plant(faker, session, options, mint) };
}

function systemPrompt(faker: Faker, id: string): string {
  return `You are a coding agent working in the ${faker.word.noun()} repository (session ${id}). Use the tools to read, search, run and edit; keep answers short.`;
}

function plant(faker: Faker, session: ScenarioSession, options: GenerateOptions, mint: CanaryMint): { canaries: Canary[]; secrets: FakeSecret[] } {
  const turnCount = session.turns.length;
  const canaries: Canary[] = [];
  const secrets: FakeSecret[] = [];
  if (turnCount === 0) return { canaries, secrets };
  const canaryTurns = pickTurns(faker, turnCount, options.canariesPerSession ?? 3);
  for (const [i, turn] of canaryTurns.entries()) {
    const canary = mint.canary(session.id, turn, CANARY_TOPICS[(i + faker.number.int(CANARY_TOPICS.length - 1)) % CANARY_TOPICS.length]!);
    appendToUser(session.turns[turn]!, canarySentence(canary));
    canaries.push(canary);
  }
  for (const turn of pickTurns(faker, turnCount, options.secretsPerSession ?? 1)) {
    const secret: FakeSecret = { session: session.id, kind: faker.helpers.arrayElement(SECRET_KINDS), value: "", turn };
    secret.value = fakeSecretValue(faker, secret.kind as (typeof SECRET_KINDS)[number]);
    leakSecret(session.turns[turn]!, secretLine(secret));
    secrets.push(secret);
  }
  return { canaries, secrets };
}

/** `count` distinct turn indexes in ascending order (fewer if the session is shorter). */
export function pickTurns(faker: Faker, turnCount: number, count: number): number[] {
  const all = Array.from({ length: turnCount }, (_, i) => i);
  return faker.helpers.arrayElements(all, Math.min(count, turnCount)).sort((a, b) => a - b);
}

export function appendToUser(turn: ScenarioTurn, text: string): void {
  if (typeof turn.user === "string") turn.user += text;
  else turn.user = [...turn.user, { type: "text", text: text.trim() }];
}

/** A secret shows up in the first text tool output of the turn, as a `.env` line; else in the user's message. */
function leakSecret(turn: ScenarioTurn, line: string): void {
  for (const step of turn.steps) {
    for (const call of step.toolCalls ?? []) {
      if (typeof call.result === "string") {
        call.result = `${line}\n${call.result}`;
        return;
      }
    }
  }
  appendToUser(turn, ` My key is ${line}`);
}
