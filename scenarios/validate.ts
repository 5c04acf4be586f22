import { UsageError } from "../harness/util/errors.ts";
import type { Problem } from "../harness/util/schema.ts";
import type { Scenario, ScenarioTurn, ScheduleStep } from "./format.ts";
import { scenarioJsonSchema, scenarioSchema } from "./schema.ts";

/** The published JSON Schema of the scenario format (scenario.schema.json), as data. */
export const SCENARIO_SCHEMA: Readonly<Record<string, unknown>> = scenarioJsonSchema();

/** A scenario that does not conform: names the JSON path of the first problem (exit 2). */
export class ScenarioFormatError extends UsageError {
  constructor(
    readonly source: string,
    readonly problem: Problem,
  ) {
    super(`${source}: ${problem.path}: ${problem.message}`);
  }
}

/** The first problem in `value` as a scenario (schema first, then cross references), or null. */
export function findScenarioProblem(value: unknown): Problem | null {
  return scenarioSchema.check(value, "$") ?? crossReferenceProblem(value as Scenario);
}

/** Throws ScenarioFormatError unless `value` is a valid scenario. */
export function assertScenario(value: unknown, source = "scenario"): asserts value is Scenario {
  const problem = findScenarioProblem(value);
  if (problem) throw new ScenarioFormatError(source, problem);
}

/** Faults after which the turn has no further provider response. */
const ENDS_THE_TURN: ReadonlySet<string> = new Set(["content-policy", "terminal", "interrupted"]);

/** What the schema cannot say: ids that must resolve, and a schedule that plays every turn once, in order. */
function crossReferenceProblem(scenario: Scenario): Problem | null {
  const turnCounts = new Map<string, number>();
  const named: Array<[string, string]> = [
    ...scenario.sessions.map((session, i): [string, string] => [`$.sessions[${i}].id`, session.id]),
    ...(scenario.legacyStore?.sessions ?? []).map((session, i): [string, string] => [`$.legacyStore.sessions[${i}].id`, session.id]),
    ...scenario.schedule.flatMap((step, i): Array<[string, string]> =>
      step.kind === "event" && "newSession" in step.event ? [[`$.schedule[${i}].event.newSession`, step.event.newSession]] : [],
    ),
  ];
  for (const [path, id] of named) {
    // Session ids key plain objects (histories in the trace): this one would be taken for the prototype.
    if (id === "__proto__") return { path, message: 'the session id "__proto__" is not accepted (JavaScript takes it for the prototype)' };
  }
  for (const [i, session] of scenario.sessions.entries()) {
    if (turnCounts.has(session.id)) return { path: `$.sessions[${i}].id`, message: `duplicate session id "${session.id}"` };
    turnCounts.set(session.id, session.turns.length);
  }
  for (const [i, session] of scenario.sessions.entries()) {
    for (const [t, turn] of session.turns.entries()) {
      const last = turn.steps.length - 1;
      for (const [s, step] of turn.steps.entries()) {
        if (s < last && step.fault && ENDS_THE_TURN.has(step.fault.kind)) {
          return { path: `$.sessions[${i}].turns[${t}].steps[${s}].fault`, message: `a ${step.fault.kind} fault ends the turn, so it must be the last step` };
        }
      }
    }
  }
  for (const [i, legacy] of (scenario.legacyStore?.sessions ?? []).entries()) {
    const m = legacy.messages.findIndex((message) => "message_uid" in message);
    if (m >= 0) return { path: `$.legacyStore.sessions[${i}].messages[${m}].message_uid`, message: "a v30 row has no message_uid column" };
  }
  const createdBy = new Map<string, number>();
  for (const [i, step] of scenario.schedule.entries()) {
    if (step.kind === "event" && "newSession" in step.event) {
      if (createdBy.has(step.event.newSession)) {
        return { path: `$.schedule[${i}].event.newSession`, message: `session "${step.event.newSession}" is created twice` };
      }
      createdBy.set(step.event.newSession, i);
    }
  }
  const nextTurn = new Map<string, number>();
  for (const [i, step] of scenario.schedule.entries()) {
    const problem = scheduleStepProblem(step, i, turnCounts, createdBy, nextTurn);
    if (problem) return problem;
  }
  for (const [id, count] of turnCounts) {
    if ((nextTurn.get(id) ?? 0) !== count) {
      return { path: "$.schedule", message: `session "${id}" has ${count} turn(s) but the schedule plays ${nextTurn.get(id) ?? 0}` };
    }
  }
  const indexProblem = messageIndexProblem(scenario);
  if (indexProblem) return indexProblem;
  for (const [key, list] of [["canaries", scenario.canaries], ["secrets", scenario.secrets]] as const) {
    for (const [i, planted] of list.entries()) {
      const count = turnCounts.get(planted.session);
      if (count === undefined) return { path: `$.${key}[${i}].session`, message: `unknown session "${planted.session}"` };
      if (planted.turn >= count) return { path: `$.${key}[${i}].turn`, message: `turn ${planted.turn} is past the session's ${count} turn(s)` };
    }
  }
  const tokens = new Set<string>();
  for (const [i, canary] of scenario.canaries.entries()) {
    if (tokens.has(canary.token)) return { path: `$.canaries[${i}].token`, message: `canary token "${canary.token}" is not unique` };
    if (!canary.fact.includes(canary.token)) return { path: `$.canaries[${i}].fact`, message: "the fact does not contain its token" };
    tokens.add(canary.token);
  }
  return null;
}

function scheduleStepProblem(
  step: ScheduleStep,
  index: number,
  turnCounts: Map<string, number>,
  createdBy: Map<string, number>,
  nextTurn: Map<string, number>,
): Problem | null {
  const path = `$.schedule[${index}]`;
  const declared = turnCounts.get(step.session);
  const creator = createdBy.get(step.session);
  if (declared === undefined && creator === undefined) {
    return { path: `${path}.session`, message: `unknown session "${step.session}"` };
  }
  if (creator !== undefined && creator >= index) {
    return { path: `${path}.session`, message: `session "${step.session}" is used before the event at $.schedule[${creator}] creates it` };
  }
  if (step.kind === "turn") {
    if (declared === undefined) return { path: `${path}.session`, message: `session "${step.session}" declares no turns` };
    const expected = nextTurn.get(step.session) ?? 0;
    if (step.turn !== expected) return { path: `${path}.turn`, message: `expected turn ${expected} of "${step.session}", got ${step.turn}` };
    if (step.turn >= declared) return { path: `${path}.turn`, message: `session "${step.session}" has only ${declared} turn(s)` };
    nextTurn.set(step.session, expected + 1);
  }
  return null;
}

/** Messages one turn can add to a session's history at most: the user message, each response and each result. */
function turnCapacity(turn: ScenarioTurn): number {
  let count = 1;
  for (const step of turn.steps) count += 1 + (step.toolCalls?.length ?? 0);
  return count;
}

/**
 * A content-rewrite or duplicate-row event must name a message the session can hold when the
 * event plays: at most its stored or system rows plus everything the turns and events before
 * it add (compaction only shrinks that). An index past it can never resolve, whatever the engine.
 */
function messageIndexProblem(scenario: Scenario): Problem | null {
  const capacity = new Map<string, number>();
  const legacyRows = new Map((scenario.legacyStore?.sessions ?? []).map((session) => [session.id, session.messages.length]));
  for (const session of scenario.sessions) capacity.set(session.id, legacyRows.get(session.id) || 1);
  const turns = new Map(scenario.sessions.map((session) => [session.id, session.turns]));
  for (const [i, step] of scenario.schedule.entries()) {
    const held = capacity.get(step.session) ?? 0;
    if (step.kind === "turn") {
      const turn = turns.get(step.session)?.[step.turn];
      if (turn) capacity.set(step.session, held + turnCapacity(turn));
      continue;
    }
    const event = step.event;
    switch (event.type) {
      case "content-rewrite":
      case "duplicate-row":
        if (event.messageIndex >= held) {
          return {
            path: `$.schedule[${i}].event.messageIndex`,
            message: `message ${event.messageIndex} is past the ${held} message(s) session "${step.session}" can hold at that point`,
          };
        }
        if (event.type === "duplicate-row") capacity.set(step.session, held + 1);
        break;
      case "legacy-write":
        capacity.set(step.session, held + event.messages.length);
        break;
      case "rewind":
        capacity.set(step.session, Math.min(held, event.keepMessages));
        break;
      case "branch":
      case "export-import":
      case "rotate":
        capacity.set(event.newSession, held);
        break;
      default:
        break;
    }
  }
  return null;
}
